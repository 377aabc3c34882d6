package io.stator.backup;

/**
 * A copy of a table's items as of a time, made for an export to read ({@link
 * OnDemandBackups#copyAsOf}): a point-in-time copy as RestoreTableToPointInTime makes one, which
 * no backup operation shows and which the next start drops if it is still there. Closing it drops
 * it.
 */
public final class PointInTimeCopy implements AutoCloseable {
  private final StoredBackup copy;
  private final Restores restores;

  PointInTimeCopy(StoredBackup copy, Restores restores) {
    this.copy = copy;
    this.restores = restores;
  }

  /** The space that holds the items, keyed as the table's. */
  public String space() {
    return copy.space();
  }

  @Override
  public void close() {
    restores.forget(copy);
  }
}
