package io.stator.server;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;

/**
 * HTTPS for the server: a certificate chain and its private key in PEM files (the key unencrypted,
 * PKCS#8, as {@code openssl req -newkey ... -nodes} writes it), TLS 1.3 and 1.2 only, with the
 * JDK's own implementation (no native library to ship).
 */
public final class Tls {
  private Tls() {}

  /** The password of the self-signed certificate's key store, which only Stator reads. */
  private static final char[] STORE_PASSWORD = "stator".toCharArray();

  /**
   * HTTPS with a self-signed certificate for localhost and 127.0.0.1, made once in {@code dir}
   * by the JDK's keytool ({@code keystore.p12}) and exported as {@code cert.pem} for clients to
   * trust; later starts reuse it, so a client trusts it once.
   */
  public static SslContext selfSigned(Path dir) throws IOException {
    Path store = dir.resolve("keystore.p12");
    Path certificate = dir.resolve("cert.pem");
    if (!Files.exists(store) || !Files.exists(certificate)) {
      Files.createDirectories(dir);
      Files.deleteIfExists(store);
      keytool("-genkeypair", "-alias", "stator", "-keyalg", "EC", "-groupname", "secp256r1",
          "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
          "-validity", "825", "-storetype", "PKCS12", "-keystore", store.toString(),
          "-storepass", new String(STORE_PASSWORD), "-keypass", new String(STORE_PASSWORD));
      keytool("-exportcert", "-rfc", "-alias", "stator", "-keystore", store.toString(),
          "-storepass", new String(STORE_PASSWORD), "-file", certificate.toString());
    }
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, STORE_PASSWORD);
      KeyManagerFactory managers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      managers.init(keys, STORE_PASSWORD);
      return SslContextBuilder.forServer(managers)
          .sslProvider(SslProvider.JDK)
          .protocols("TLSv1.3", "TLSv1.2")
          .build();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + store + ": " + e.getMessage(), e);
    }
  }

  private static void keytool(String... arguments) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (keytool.waitFor() != 0) {
        throw new IOException("keytool failed: " + output.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while making a certificate", e);
    }
  }

  /** The server's TLS from {@code certificate} and {@code key}; IllegalArgumentException why not. */
  public static SslContext fromPem(File certificate, File key) {
    try {
      return SslContextBuilder.forServer(certificate, key)
          .sslProvider(SslProvider.JDK)
          .protocols("TLSv1.3", "TLSv1.2")
          .build();
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
