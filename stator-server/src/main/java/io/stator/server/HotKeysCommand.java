package io.stator.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import io.stator.server.auth.Credential;
import io.stator.server.auth.SigV4;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stator hot-keys --table T}: asks a running server for its capacity model's view of a
 * table and prints, per partition, the consumed RCU/WCU per second, the throttles and the
 * hottest partition keys: what DynamoDB's Contributor Insights would rank as the most accessed
 * and most throttled keys.
 */
@Command(
    name = "hot-keys",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "Show a table's partitions, throttles and hottest partition keys (what Contributor"
            + " Insights would show).")
final class HotKeysCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--table", required = true, description = "The table to report on.")
  String table;

  @Option(
      names = "--index",
      description = "A global secondary index of the table: report its own partitions.")
  String index;

  @Option(
      names = "--endpoint",
      defaultValue = "http://127.0.0.1:8000",
      description = "The Stator server (default: ${DEFAULT-VALUE}).")
  String endpoint;

  @Option(
      names = "--keys",
      defaultValue = "5",
      description = "Hot keys shown per partition (default: ${DEFAULT-VALUE}).")
  int keys;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  /**
   * Where the AWS credentials come from (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
   * AWS_SESSION_TOKEN): when set, the request is signed, as a server with --auth sigv4 needs.
   */
  Map<String, String> environment = System.getenv();

  @Override
  public Integer call() throws Exception {
    String base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    String query = json ? "" : "format=text&keys=" + keys;
    if (index != null) {
      query += (query.isEmpty() ? "" : "&") + "index="
          + URLEncoder.encode(index, StandardCharsets.UTF_8);
    }
    String path = base + "/stator/tables/"
        + URLEncoder.encode(table, StandardCharsets.UTF_8) + "/partitions"
        + (query.isEmpty() ? "" : "?" + query);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    HttpResponse<String> response;
    try {
      HttpClient client =
          HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      URI uri = URI.create(path);
      HttpRequest.Builder request =
          HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
      String keyId = environment.get("AWS_ACCESS_KEY_ID");
      String secret = environment.get("AWS_SECRET_ACCESS_KEY");
      if (keyId != null && secret != null) {
        Credential key = new Credential(keyId, secret, environment.get("AWS_SESSION_TOKEN"));
        String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        SigV4.signGet(key, uri.getRawAuthority(), target, Instant.now()).forEach(request::header);
      }
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      // The JDK's ConnectException often has no message at all.
      err.println("stator: cannot reach " + base + ": nothing answers there (is 'stator serve'"
          + " running? choose its address with --endpoint)");
      err.flush();
      return 1;
    } catch (IOException | IllegalArgumentException e) {
      err.println("stator: cannot reach " + base + ": "
          + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
      err.flush();
      return 1;
    }
    if (response.statusCode() != 200) {
      err.println("stator: " + errorMessage(response.body()));
      err.flush();
      return 1;
    }
    out.print(response.body());
    if (json) {
      out.println();
    }
    out.flush();
    return 0;
  }

  /** The message of the server's JSON error rather than the JSON itself. */
  static String errorMessage(String body) {
    try (JsonParser parser = new JsonFactory().createParser(body)) {
      if (parser.nextToken() == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          JsonToken value = parser.nextToken();
          if (field.equals("message") && value == JsonToken.VALUE_STRING) {
            return parser.getText();
          }
          parser.skipChildren();
        }
      }
    } catch (IOException e) {
      // not JSON: shown as it is
    }
    return body;
  }
}
