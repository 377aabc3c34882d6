package io.stator.server;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.File;
import javax.net.ssl.SSLException;

/**
 * HTTPS for the server: a certificate chain and its private key in PEM files (the key unencrypted,
 * PKCS#8, as {@code openssl req -newkey ... -nodes} writes it), TLS 1.3 and 1.2 only, with the
 * JDK's own implementation (no native library to ship).
 */
public final class Tls {
  private Tls() {}

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
