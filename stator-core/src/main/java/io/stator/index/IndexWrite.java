package io.stator.index;

/**
 * The index side of one write attempt, staged into its commit by {@link Indexes#stage}. Close it
 * after the commit attempt, whether it succeeded or failed: that resolves the attempt's
 * change-log sequence number and wakes the propagator.
 */
public final class IndexWrite implements AutoCloseable {
  private final Indexes indexes;
  private final String tableName;
  private final long sequence;

  IndexWrite(Indexes indexes, String tableName, long sequence) {
    this.indexes = indexes;
    this.tableName = tableName;
    this.sequence = sequence;
  }

  @Override
  public void close() {
    if (sequence >= 0) {
      indexes.resolved(tableName, sequence);
    }
  }
}
