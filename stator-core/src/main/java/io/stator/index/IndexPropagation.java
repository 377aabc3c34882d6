package io.stator.index;

import java.time.Duration;

/**
 * Stator's own view of how far global secondary indexes lag their tables (see {@link
 * Propagator}): how many changes wait, and a wait until none does. Every database from {@code
 * Stator.open} offers it; tests wait on it instead of sleeping, and the server's metrics read
 * the backlog.
 */
public interface IndexPropagation {
  /** Counting stops here: a backlog this long is reported as this many. */
  long COUNTED_UP_TO = 10_000;

  /**
   * The change records of {@code tableName} not yet applied to its GSIs (the records waiting in
   * its change log), up to {@link #COUNTED_UP_TO}; zero while every GSI is maintained in each
   * write's own commit.
   *
   * @throws io.stator.api.DynamoDbException ResourceNotFoundException when there is no such table
   */
  long propagationBacklog(String tableName);

  /**
   * Waits until every global secondary index has caught up with every committed write and every
   * backfill has finished; false if that took longer than {@code timeout}.
   */
  boolean awaitIndexes(Duration timeout) throws InterruptedException;
}
