package io.stator.index;

/**
 * The index side of one write attempt, staged into its commit by {@link Indexes#stage}. Close it
 * after the commit attempt, whether it succeeded or failed: that resolves the attempt's
 * change-log sequence number (waking the propagator) and its stream record's sequence number.
 */
public final class IndexWrite implements AutoCloseable {
  private final Indexes indexes;
  private final String tableName;
  private final long sequence;
  private final long streamSequence;

  IndexWrite(Indexes indexes, String tableName, long sequence, long streamSequence) {
    this.indexes = indexes;
    this.tableName = tableName;
    this.sequence = sequence;
    this.streamSequence = streamSequence;
  }

  @Override
  public void close() {
    if (sequence >= 0) {
      indexes.resolved(tableName, sequence);
    }
    if (streamSequence >= 0) {
      indexes.streamResolved(streamSequence);
    }
  }
}
