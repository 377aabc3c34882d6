package io.stator.server;

import io.stator.api.Database;
import io.stator.api.ListTablesRequest;
import io.stator.storage.GroupCommit;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 *
 * <p>The storage is checked on a thread of its own, and the health check waits for that check
 * at most {@link #STORAGE_WAIT_MILLIS}: a storage that stopped answering (a stalled Cassandra
 * node, whose driver gives up only after 12 s) is reported as a 503 then, rather than holding
 * the health check, and the connection's worker, for as long. A check still waiting is shared
 * by the health checks that follow, so a long stall costs one thread, not one per health check.
 */
final class ServerHealth {
  private static final ListTablesRequest ONE_TABLE = new ListTablesRequest(null, 1);
  static final long STORAGE_WAIT_MILLIS = 1_000;

  private final Database database;
  private final GroupCommit groupCommit;
  private final AcceptBackoff accepts;
  private final ConnectionLimit connections;
  private final HttpConnection.Closes closes;
  private volatile boolean stopping;
  private CompletableFuture<String> storageCheck; // the last one started; guarded by this
  private final ThreadPoolExecutor checker = checker();

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
      return storageCheck().get(STORAGE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return "the storage has not answered within " + STORAGE_WAIT_MILLIS + " ms";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "the server is stopping";
    } catch (ExecutionException e) {
      return "the storage check failed (" + e.getCause() + ")";
    }
  }

  /** The storage check still running, or a new one when none is. */
  private synchronized CompletableFuture<String> storageCheck() {
    if (storageCheck == null || storageCheck.isDone()) {
      CompletableFuture<String> check = new CompletableFuture<>();
      storageCheck = check;
      checker.execute(() -> {
        try {
          check.complete(storageProblem());
        } catch (Throwable t) { // an Error too, or every later health check would wait on it
          check.completeExceptionally(t);
        }
      });
    }
    return storageCheck;
  }

  /**
   * The one thread storage checks run on, there only while checks come: one check at a time is
   * all there is to run (a check still running is shared), and a load balancer that asks every
   * few seconds should not cost a thread each time.
   */
  private static ThreadPoolExecutor checker() {
    ThreadPoolExecutor checker = new ThreadPoolExecutor(
        1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
          Thread thread = new Thread(task, "stator-health-check");
          thread.setDaemon(true); // a stalled storage must not keep the process alive
          return thread;
        });
    checker.allowCoreThreadTimeOut(true);
    return checker;
  }

  /** Why the storage cannot serve, or null when it can: a catalog read and a durable wait. */
  private String storageProblem() {
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
