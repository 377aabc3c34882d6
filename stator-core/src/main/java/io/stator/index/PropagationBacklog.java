package io.stator.index;

/**
 * Stator's own figure: how many changes of a table its global secondary indexes have yet to
 * apply, the records waiting in its change log (see {@link Propagator}). Zero while every GSI
 * is maintained in each write's own commit. Every database from {@code Stator.open} offers it;
 * the server's metrics read it.
 */
public interface PropagationBacklog {
  /** Counting stops here: a backlog this long is reported as this many. */
  long COUNTED_UP_TO = 10_000;

  /**
   * The change records of {@code tableName} not yet applied to its GSIs, up to {@link
   * #COUNTED_UP_TO}.
   *
   * @throws io.stator.api.DynamoDbException ResourceNotFoundException when there is no such table
   */
  long propagationBacklog(String tableName);
}
