package io.stator.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.server.auth.Credential;
import io.stator.server.auth.SigV4;
import io.stator.server.wire.WireProtocol;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * A running server's DynamoDB API as Stator's own commands call it ({@code stator export},
 * {@code stator import}): one operation a call, its request written and its answer read as a
 * stream of JSON, signed with SigV4 with the AWS credentials of the environment (a server with
 * {@code --auth sigv4} needs them; others take any well-formed signature, so a placeholder key
 * signs when there are none). Throttling and server errors
 * are retried with backoff, as the AWS SDKs retry them; any other error is an {@link ApiError}
 * with DynamoDB's {@code __type} and message. A request whose connection fails after it was made
 * is sent again too.
 */
final class DynamoDbApi {
  static final JsonFactory JSON = new JsonFactory();
  private static final int ATTEMPTS = 10;
  private static final Set<String> RETRIED = Set.of("ProvisionedThroughputExceededException",
      "ThrottlingException", "RequestLimitExceeded", "InternalServerError",
      "ServiceUnavailable", "LimitExceededException");

  /** An error answered by the server: its type (the {@code __type} without its prefix). */
  static final class ApiError extends RuntimeException {
    final String type;

    ApiError(String type, String message) {
      super(type + ": " + message);
      this.type = type;
    }
  }

  /** Writes an operation's request body. */
  @FunctionalInterface
  interface Body {
    void write(JsonGenerator out) throws IOException;
  }

  /** Reads an operation's answer, the parser on its first token. */
  @FunctionalInterface
  interface Answer<T> {
    T read(JsonParser in) throws IOException;
  }

  private final URI uri;
  private final String base;
  private final Map<String, String> environment;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  DynamoDbApi(String endpoint, Map<String, String> environment) {
    this.base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    this.uri = URI.create(base + "/");
    this.environment = environment;
  }

  String base() {
    return base;
  }

  /**
   * Calls {@code operation} with the body {@code body} writes and answers what {@code answer}
   * reads of the response; retries throttling and server errors, then gives up with the last.
   */
  <T> T call(String operation, Body body, Answer<T> answer) throws IOException {
    byte[] request = json(body);
    for (int attempt = 1; ; attempt++) {
      HttpResponse<InputStream> response;
      try {
        response = send(operation, request);
      } catch (ConnectException e) {
        throw e;
      } catch (IOException e) {
        // A kept-alive connection the server closed as the request went out: sent again on
        // another, as the SDKs do (every call here may be repeated).
        if (attempt == ATTEMPTS) {
          throw e;
        }
        System.err.println("stator: " + operation + " sent again: " + e);
        backoff(attempt);
        continue;
      }
      try (InputStream in = response.body(); JsonParser parser = JSON.createParser(in)) {
        if (response.statusCode() == 200) {
          parser.nextToken();
          return answer.read(parser);
        }
        ApiError error = error(parser, response.statusCode());
        if (attempt == ATTEMPTS || !(RETRIED.contains(error.type)
            || response.statusCode() >= 500)) {
          throw error;
        }
      }
      backoff(attempt);
    }
  }

  /** Sleeps before the next attempt: 50 ms doubled each time, at most 5 s, with jitter. */
  static void backoff(int attempt) throws IOException {
    long cap = Math.min(5000, 50L << Math.min(attempt, 10));
    try {
      Thread.sleep(cap / 2 + (long) (Math.random() * cap / 2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private HttpResponse<InputStream> send(String operation, byte[] body) throws IOException {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2))
        .header("Content-Type", "application/x-amz-json-1.0")
        .header("X-Amz-Target", WireProtocol.TARGET_PREFIX + operation)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    SigV4.sign(credential(), "POST", uri.getRawAuthority(), "/", body, Instant.now())
        .forEach(request::header);
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (ConnectException e) {
      // The JDK's ConnectException often has no message at all.
      ConnectException refused = new ConnectException("cannot reach " + base + ": nothing"
          + " answers there (is 'stator serve' running? choose its address with --endpoint)");
      refused.initCause(e);
      throw refused;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /**
   * The key of AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; without them a
   * placeholder, which a server without {@code --auth sigv4} takes as any well-formed signature.
   */
  private Credential credential() {
    String keyId = environment.get("AWS_ACCESS_KEY_ID");
    String secret = environment.get("AWS_SECRET_ACCESS_KEY");
    if (keyId != null && secret != null) {
      return new Credential(keyId, secret, environment.get("AWS_SESSION_TOKEN"));
    }
    return new Credential("stator", "stator", null);
  }

  private static byte[] json(Body body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (JsonGenerator out = JSON.createGenerator(bytes)) {
      out.writeStartObject();
      body.write(out);
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The error of an answer other than 200: its {@code __type} and message. */
  private static ApiError error(JsonParser parser, int status) throws IOException {
    String type = "HTTP " + status;
    String message = "";
    try {
      if (parser.nextToken() == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          JsonToken value = parser.nextToken();
          if (field.equals("__type") && value == JsonToken.VALUE_STRING) {
            type = parser.getText().substring(parser.getText().indexOf('#') + 1);
          } else if (field.equalsIgnoreCase("message") && value == JsonToken.VALUE_STRING) {
            message = parser.getText();
          } else {
            parser.skipChildren();
          }
        }
      }
    } catch (IOException notJson) {
      // an answer that is not DynamoDB's JSON: its status says enough
    }
    return new ApiError(type, message);
  }
}
