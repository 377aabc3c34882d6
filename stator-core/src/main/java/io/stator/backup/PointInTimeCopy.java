package io.stator.backup;

/**
 * A copy of a table's items as of a time, made for an export to read ({@link
 * OnDemandBackups#copyAsOf}): a point-in-time copy as RestoreTableToPointInTime makes one, which
 * no backup operation shows. Closing it drops it; one an export cut short left is dropped when
 * that export is settled ({@link OnDemandBackups#forgetExportCopy}), not at a start, since on a
 * shared store another server may be reading it.
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
