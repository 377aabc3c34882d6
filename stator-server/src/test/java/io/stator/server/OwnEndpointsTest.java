package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.server.access.Policy;
import io.stator.server.access.Principal;
import io.stator.server.auth.Credential;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/**
 * Stator's own endpoints refuse what a web page could send them (a request with an Origin, a
 * Host name rebound to the server) and, with --auth sigv4, unsigned calls that change data or
 * show keys; a GET of any other path than / is not the health check.
 */
class OwnEndpointsTest {
  /** Sends {@code head} (and no body) on a fresh connection; returns the status and body. */
  private static String[] send(int port, String head) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      out.write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      String status = response.substring(9, 12);
      return new String[] {status, response.substring(response.indexOf("\r\n\r\n") + 4)};
    }
  }

  @Test
  void webPagesAndReboundNamesAreRefusedAndOnlySlashIsHealthy() throws IOException {
    try (StatorServer server = StatorServer.start("127.0.0.1", 0, Stator.inMemory())) {
      int port = server.port();
      String sweep = "POST /stator/ttl/sweep HTTP/1.1\r\nContent-Length: 0\r\n";
      assertThat(send(port, sweep + "Host: 127.0.0.1:" + port + "\r\n")[1])
          .contains("\"DeletedItems\":0");
      assertThat(send(port, sweep + "Host: localhost\r\n")[0]).isEqualTo("200");
      assertThat(send(port, sweep + "Host: [::1]:" + port + "\r\n")[0]).isEqualTo("200");

      String[] page = send(port, sweep + "Host: 127.0.0.1\r\nOrigin: https://evil.example\r\n");
      assertThat(page[0]).isEqualTo("403");
      assertThat(page[1]).isEqualTo("Stator's own endpoints do not answer web pages");
      String[] rebound = send(port, sweep + "Host: evil.example:" + port + "\r\n");
      assertThat(rebound[0]).isEqualTo("403");
      assertThat(rebound[1]).contains("not to evil.example:" + port);
      String partitions = "GET /stator/tables/T/partitions HTTP/1.1\r\n";
      assertThat(send(port, partitions + "Host: evil.example\r\n")[0]).isEqualTo("403");
      assertThat(send(port, partitions + "Host: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\n")[0])
          .isEqualTo("403");
      // The metrics show no keys: a scraper may name the server as it likes
      assertThat(send(port, "GET /stator/metrics HTTP/1.1\r\nHost: stator:8000\r\n")[0])
          .isEqualTo("200");

      assertThat(send(port, "GET / HTTP/1.1\r\nHost: stator\r\n")[1]).startsWith("healthy: ");
      String[] elsewhere = send(port, "GET /favicon.ico HTTP/1.1\r\nHost: stator\r\n");
      assertThat(elsewhere[0]).isEqualTo("404");
      assertThat(send(port, "GET /stator/nope HTTP/1.1\r\nHost: 127.0.0.1\r\n")[0])
          .isEqualTo("404");
    }
  }

  @Test
  void withSignaturesTheSweepNeedsOne() throws Exception {
    SigV4 signatures = new SigV4(
        Credentials.of(List.of(new Credential("AKIDSTATOR", "secret-one", null),
            new Credential("AKIDREADER", "secret-two", null, new Principal(
                "arn:aws:iam::000000000000:user/reader", Policy.parse(
                    "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"dynamodb:*\","
                        + " \"Resource\": \"*\"}}"))))),
        Clock.systemUTC());
    try (StatorServer server = StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1",
        true, 1, ServerLimits.defaults(), signatures, null)) {
      int port = server.port();
      String[] unsigned = send(port,
          "POST /stator/ttl/sweep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n");
      assertThat(unsigned[0]).isEqualTo("400");
      assertThat(unsigned[1]).contains("MissingAuthenticationTokenException");

      String[] answer = send(port, signedSweep(port, "AKIDSTATOR", "secret-one"));
      assertThat(answer[0]).as(answer[1]).isEqualTo("200");
      assertThat(answer[1]).contains("\"DeletedItems\":0");
      // a user whose policy does not name Stator's own action is refused it
      String[] refused = send(port, signedSweep(port, "AKIDREADER", "secret-two"));
      assertThat(refused[0]).isEqualTo("400");
      assertThat(refused[1]).contains("AccessDeniedException").contains(
          "User: arn:aws:iam::000000000000:user/reader is not authorized to perform:"
              + " stator:SweepExpiredItems on resource: *");

      // ./stator hot-keys signs with the AWS_* keys of its environment, or is refused
      for (Map<String, String> environment : List.of(
          Map.<String, String>of(),
          Map.of("AWS_ACCESS_KEY_ID", "AKIDSTATOR", "AWS_SECRET_ACCESS_KEY", "secret-one"))) {
        HotKeysCommand command = new HotKeysCommand();
        command.environment = environment;
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cli = new picocli.CommandLine(command);
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        int status = cli.execute("--table", "Nope", "--endpoint", "http://127.0.0.1:" + port);
        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).contains(environment.isEmpty()
            ? "Request is missing Authentication Token" : "Nope");
      }
    }
  }

  /** The head of a sweep request signed with the key. */
  private static String signedSweep(int port, String keyId, String secret) {
    SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.POST)
        .uri(URI.create("http://127.0.0.1:" + port)).encodedPath("/stator/ttl/sweep").build();
    var signed = AwsV4HttpSigner.create().sign(r -> r
        .identity(AwsBasicCredentials.create(keyId, secret))
        .request(request)
        .payload(() -> new ByteArrayInputStream(new byte[0]))
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "dynamodb")
        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")).request();
    StringBuilder head = new StringBuilder("POST /stator/ttl/sweep HTTP/1.1\r\n"
        + "Content-Length: 0\r\n");
    for (Map.Entry<String, List<String>> h : signed.headers().entrySet()) {
      head.append(h.getKey()).append(": ").append(String.join(",", h.getValue())).append("\r\n");
    }
    return head.toString();
  }
}
