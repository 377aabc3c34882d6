package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;

/**
 * The versions one {@link CassandraStorage} gives its commits' puts: numbers from blocks it
 * reserves in the store's row of the table {@code versions}, so that no two instances on one
 * store, in one process or in several, ever issue the same version.
 *
 * <p>The row holds the store's ceiling: every version up to it is reserved by some instance. An
 * instance reserves the next {@value #BLOCK} numbers with one Accord transaction that reads the
 * ceiling and raises it only if it still has the value the instance last saw (or creates the row
 * if it is absent); the transaction returns the value it read, so an instance that lost the race
 * to another learns the new ceiling and tries again above it. Accord runs transactions on one key
 * one after another, so two reservations never return the same block. An instance then issues
 * its block's numbers in order, in memory, and reserves the next block when it runs out: one
 * transaction per {@value #BLOCK} commits, and an instance that stops leaves the rest of its
 * block unused. A store begins at 0, so its versions are small numbers; a store written before
 * the blocks carries versions from a clock counted in microseconds (about 2^50), which the blocks
 * would reach only after that many commits.
 *
 * <p>Why not the obvious alternatives: the clock of each process (what came before: milliseconds
 * times 1,000, raised by one when a process would repeat itself) issues one version twice when two
 * processes start counting from the same millisecond; a random instance id in the
 * high bits only makes a repeat unlikely; and a version computed inside each commit's
 * transaction from the key's last one cannot survive a delete, which leaves nothing to compute
 * from. Versions so reserved are unique but not ordered across instances, which is what the
 * Storage SPI asks (see {@link io.stator.storage.Storage}).
 */
final class VersionBlocks {
  /** How many versions one reservation takes. */
  static final long BLOCK = 1 << 16;

  private final CqlSession session;
  private final String store;
  private final PreparedStatement create;
  private final PreparedStatement raise;
  /** The last version issued, and the last of this instance's block; guarded by this. */
  private long issued;
  private long end;
  /** The ceiling last read from the row (-1: not read yet; the row may be absent). */
  private long seen = -1;

  VersionBlocks(CqlSession session, String keyspace, String store) {
    this.session = session;
    this.store = store;
    String read = "  LET v = (SELECT ceiling FROM " + keyspace + ".versions WHERE store = ?);\n"
        + "  SELECT v.ceiling;\n";
    String write = "    INSERT INTO " + keyspace + ".versions (store, ceiling) VALUES (?, ?);\n";
    create = session.prepare(
        "BEGIN TRANSACTION\n" + read + "  IF v IS NULL THEN\n" + write + "  END IF\n"
            + "COMMIT TRANSACTION");
    raise = session.prepare(
        "BEGIN TRANSACTION\n" + read + "  IF v.ceiling = ? THEN\n" + write + "  END IF\n"
            + "COMMIT TRANSACTION");
  }

  /** A version no instance on the store has issued or will issue. */
  synchronized long next() {
    if (issued == end) {
      reserve();
    }
    return ++issued;
  }

  /** Takes the next block above the store's ceiling. */
  private void reserve() {
    while (true) {
      long from = Math.max(seen, 0);
      Row row =
          seen < 0
              ? session.execute(create.bind(store, store, from + BLOCK)).one()
              : session.execute(raise.bind(store, seen, store, from + BLOCK)).one();
      long read = row == null || row.isNull(0) ? -1 : row.getLong(0);
      if (read == seen) {
        issued = from;
        end = from + BLOCK;
        seen = end;
        return;
      }
      seen = read; // another instance reserved meanwhile: try again above its block
    }
  }
}
