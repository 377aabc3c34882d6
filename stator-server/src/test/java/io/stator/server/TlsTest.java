package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.Stator;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * HTTPS with a certificate made by openssl for localhost: the SDK that trusts it is served, one
 * that does not is refused by its own TLS check, and plain HTTP on the port gets no answer.
 */
class TlsTest {
  @TempDir Path dir;

  private Path[] certificate() throws Exception {
    Path cert = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048",
        "-nodes", "-keyout", key.toString(), "-out", cert.toString(), "-days", "2",
        "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1")
        .redirectErrorStream(true).start();
    openssl.getInputStream().readAllBytes();
    assertThat(openssl.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(openssl.exitValue()).isZero();
    return new Path[] {cert, key};
  }

  private static boolean opensslInstalled() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, "openssl"))) {
        return true;
      }
    }
    return false;
  }

  private static DynamoDbClient client(int port, Path trusted) throws Exception {
    UrlConnectionHttpClient.Builder http = UrlConnectionHttpClient.builder();
    if (trusted != null) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      try (InputStream in = Files.newInputStream(trusted)) {
        store.setCertificateEntry("stator",
            CertificateFactory.getInstance("X.509").generateCertificate(in));
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      http.tlsTrustManagersProvider(trust::getTrustManagers);
    }
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("https://localhost:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClient(http.build())
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  @Test
  void anSdkThatTrustsTheCertificateIsServedOverHttps() throws Exception {
    assumeTrue(opensslInstalled(), "openssl is not installed");
    Path[] pem = certificate();
    try (StatorServer server = StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1",
        true, 1, ServerLimits.defaults(), null, Tls.fromPem(pem[0].toFile(), pem[1].toFile()))) {
      try (DynamoDbClient trusting = client(server.port(), pem[0])) {
        trusting.createTable(b -> b.tableName("Secure")
            .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
            .keySchema(k -> k.attributeName("id").keyType("HASH"))
            .billingMode("PAY_PER_REQUEST"));
        assertThat(trusting.listTables().tableNames()).containsExactly("Secure");
      }
      try (DynamoDbClient untrusting = client(server.port(), null)) {
        assertThatThrownBy(untrusting::listTables).isInstanceOf(SdkClientException.class)
            .hasStackTraceContaining("PKIX");
      }
      try (Socket plain = new Socket("127.0.0.1", server.port())) {
        plain.setSoTimeout(5_000);
        plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        byte[] answer = plain.getInputStream().readAllBytes();
        assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("healthy");
      }
    }
  }

  @Test
  void theAwsCliGivenTheCertificateIsServedOverHttps() throws Exception {
    assumeTrue(opensslInstalled(), "openssl is not installed");
    assumeTrue(AwsCli.installed(), "the AWS CLI is not installed");
    Path[] pem = certificate();
    try (StatorServer server = StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1",
        true, 1, ServerLimits.defaults(), null, Tls.fromPem(pem[0].toFile(), pem[1].toFile()))) {
      URI https = URI.create("https://localhost:" + server.port());
      AwsCli.Run created = AwsCli.dynamodb(https, "create-table", "--table-name", "Secure",
          "--attribute-definitions", "AttributeName=id,AttributeType=S",
          "--key-schema", "AttributeName=id,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST",
          "--ca-bundle", pem[0].toString());
      assertThat(created.exit()).as(created.err()).isZero();
      AwsCli.Run listed = AwsCli.dynamodb(https, "list-tables", "--ca-bundle", pem[0].toString());
      assertThat(listed.exit()).as(listed.err()).isZero();
      assertThat(listed.out()).contains("\"Secure\"");
      AwsCli.Run untrusting = AwsCli.dynamodb(https, "list-tables");
      assertThat(untrusting.exit()).isNotZero();
      assertThat(untrusting.err()).containsIgnoringCase("certificate verify failed");
    }
  }

  @Test
  void aSelfSignedCertificateIsMadeOnceAndServes() throws Exception {
    Path tls = dir.resolve("stator-tls");
    try (StatorServer server = StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1",
            true, 1, ServerLimits.defaults(), null, Tls.selfSigned(tls));
        DynamoDbClient trusting = client(server.port(), tls.resolve("cert.pem"))) {
      assertThat(trusting.listTables().tableNames()).isEmpty();
    }
    byte[] first = Files.readAllBytes(tls.resolve("cert.pem"));
    Tls.selfSigned(tls);
    assertThat(Files.readAllBytes(tls.resolve("cert.pem"))).isEqualTo(first);
  }

  @Test
  void aKeyThatIsNoKeyIsRefusedAtStart() throws Exception {
    Path cert = Files.writeString(dir.resolve("c.pem"), "not a certificate");
    assertThatThrownBy(() -> Tls.fromPem(cert.toFile(), cert.toFile()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
