package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prepared {@code BEGIN TRANSACTION} statements of commits, the {@value #MOST} used last.
 *
 * <p>A commit's text follows its shape: how many expectations, which of them expect no record,
 * how many puts and deletes. A workload uses a handful of shapes (a put, a conditional put, an
 * indexed put with its index entries and catalog expectation, a transaction of a few items), but
 * the number of possible ones is large (a TransactWriteItems of 100 items over any tables), so
 * the cache is bounded: a shape past the bound costs a prepare round trip again, never memory
 * without end. The driver keeps its own cache of what it prepared, holding a statement only as
 * long as something here does.
 */
final class TransactionStatements {
  /** The most shapes kept. */
  static final int MOST = 256;

  private final CqlSession session;
  private final Map<String, PreparedStatement> lastUsed =
      new LinkedHashMap<>(MOST * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
          return size() > MOST;
        }
      };

  TransactionStatements(CqlSession session) {
    this.session = session;
  }

  /** The statement of {@code cql}, prepared once while it stays among the last used. */
  PreparedStatement prepared(String cql) {
    synchronized (lastUsed) {
      PreparedStatement statement = lastUsed.get(cql);
      if (statement != null) {
        return statement;
      }
    }
    // Prepared outside the lock: a round trip; two threads preparing one text get one statement.
    PreparedStatement statement = session.prepare(cql);
    synchronized (lastUsed) {
      lastUsed.putIfAbsent(cql, statement);
      return lastUsed.get(cql);
    }
  }

  /** Whether the statement of {@code cql} is kept (without counting as a use of it). */
  boolean holds(String cql) {
    synchronized (lastUsed) {
      return lastUsed.containsKey(cql);
    }
  }

  int size() {
    synchronized (lastUsed) {
      return lastUsed.size();
    }
  }
}
