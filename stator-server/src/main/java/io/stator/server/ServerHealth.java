package io.stator.server;

import io.stator.api.Database;
import io.stator.api.ListTablesRequest;
import io.stator.storage.GroupCommit;
import java.nio.charset.StandardCharsets;

/**
 * Whether the server can serve, for the health check ({@code GET /}), and its connections'
 * figures, for {@code GET /stator/connections}.
 *
 * <p>The health check answers 200 only when the server accepts connections, is not stopping, and
 * its storage answers: a read of the table catalog ({@code ListTables} of one table, a storage
 * read) and the group commit's wait for durability ({@link GroupCommit#awaitDurable}, which
 * writes the log when a write is pending) both succeed. Otherwise it answers 503 with the
 * reason. A supervisor that checks only the process saw nothing wrong when the server had stopped
 * accepting for good; one that checks {@code GET /} on a kept-alive connection now sees the 503,
 * and one that connects anew sees its connection wait, since a server that does not accept
 * cannot answer it either.
 */
final class ServerHealth {
  private static final ListTablesRequest ONE_TABLE = new ListTablesRequest(null, 1);

  private final Database database;
  private final GroupCommit groupCommit;
  private final AcceptBackoff accepts;
  private final ConnectionLimit connections;
  private final HttpConnection.Closes closes;
  private volatile boolean stopping;

  ServerHealth(
      Database database,
      GroupCommit groupCommit,
      AcceptBackoff accepts,
      ConnectionLimit connections,
      HttpConnection.Closes closes) {
    this.database = database;
    this.groupCommit = groupCommit;
    this.accepts = accepts;
    this.connections = connections;
    this.closes = closes;
  }

  /** From now on the server is stopping. */
  void stopping() {
    stopping = true;
  }

  /** Why the server cannot serve now, or null when it can. */
  String problem() {
    if (stopping) {
      return "the server is stopping";
    }
    String accepting = accepts.problem();
    if (accepting != null) {
      return accepting;
    }
    try {
      database.listTables(ONE_TABLE);
      groupCommit.awaitDurable();
    } catch (RuntimeException e) {
      return "the storage fails (" + e.getMessage() + ")";
    }
    return null;
  }

  /** The connections' figures as JSON. */
  byte[] connectionsJson() {
    return ("{\"Open\":" + connections.open()
            + ",\"MaxConnections\":" + connections.max()
            + ",\"Refused\":" + connections.refused()
            + ",\"AcceptFailures\":" + accepts.failures()
            + ",\"ClosedIdle\":" + closes.idle.sum()
            + ",\"ClosedSlowRequests\":" + closes.slowRequests.sum()
            + "}")
        .getBytes(StandardCharsets.UTF_8);
  }
}
