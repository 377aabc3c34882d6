package io.stator.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The commits' prepared statements stay within their bound, the last used kept. */
class TransactionStatementsTest {
  @Test
  void theCacheKeepsTheLastUsedShapesUpToItsBound() {
    TransactionStatements statements = new TransactionStatements(TestCluster.session());
    String first = text(0);
    statements.prepared(first);
    for (int i = 1; i <= TransactionStatements.MOST + 20; i++) {
      statements.prepared(text(i));
      statements.prepared(first); // used again each time: never the eldest
      assertThat(statements.size()).isLessThanOrEqualTo(TransactionStatements.MOST);
    }
    assertThat(statements.size()).isEqualTo(TransactionStatements.MOST);
    // the driver keeps prepared statements of its own, so the object alone would prove nothing:
    // the cache's own keys say which shapes it kept and which it let go
    assertThat(statements.holds(first)).isTrue();
    assertThat(statements.holds(text(1))).isFalse();
    assertThat(statements.holds(text(TransactionStatements.MOST + 20))).isTrue();
  }

  private static String text(int i) {
    return "SELECT version FROM " + TestCluster.KEYSPACE + ".records"
        + " WHERE space = ? AND bucket = ? AND partition = ? AND sort = ? LIMIT " + (i + 1);
  }
}
