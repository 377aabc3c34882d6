package io.stator.server;

import io.stator.api.Database;

/**
 * The DynamoDB HTTP front door over a {@link Database}. To be written.
 *
 * <p>{@code StatorServer.start(host, port, database)} binds (port 0 picks a free port) and
 * returns once the server accepts connections; {@link #port()} tells the bound port; {@link
 * #close()} stops it and closes the database.
 */
public final class StatorServer implements AutoCloseable {
  private final int port;

  private StatorServer(int port) {
    this.port = port;
  }

  public static StatorServer start(String host, int port, Database database) {
    throw new UnsupportedOperationException("not yet");
  }

  public int port() {
    return port;
  }

  @Override
  public void close() {}
}
