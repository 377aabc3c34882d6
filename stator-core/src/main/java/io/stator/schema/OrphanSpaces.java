package io.stator.schema;

import io.stator.storage.Storage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drops the spaces of tables that no catalog record names: left behind when a process stopped
 * between creating a table's spaces (items, indexes, change log, history) and recording the table
 * in the catalog, or between removing a table or index from the catalog and dropping its spaces.
 *
 * <h2>Why a grace period</h2>
 *
 * CreateTable creates a table's spaces and then commits the catalog record naming them (so that
 * the table never exists without its spaces); UpdateTable adding a GSI and enabling point-in-time
 * recovery do the same. On a store several servers share, a space that no record names may
 * therefore be one of such a change in progress on another server, and dropping it would leave a
 * table whose record names a space that is gone. Only time tells the two apart: a change in
 * progress records its table within a request's time, an orphan never. The storage keeps no
 * creation time of a space, so the age is measured by looking: {@link #look} drops a space only
 * when an earlier look, at least {@link #GRACE} before by the engine's clock, found it unused
 * too, and remembers the unused spaces it found for a later look. A change that stalls longer
 * than that between its spaces and its record (far beyond a storage call's timeout) loses them.
 *
 * <p>Space names carry the table's or index's id, new for every incarnation, so a dropped
 * orphan's name is never used again: a look cannot mistake a later table for an old orphan.
 * The looks run at start and then now and then ({@code engine.Housekeeping}); the unused
 * spaces seen are remembered in memory, so a restart starts the wait over, which only delays the
 * drop of garbage.
 */
public final class OrphanSpaces {
  /** How long a space must be seen unused before it is dropped. */
  public static final Duration GRACE = Duration.ofMinutes(10);

  private final Catalog catalog;
  private final Storage storage;
  private final Clock clock;
  /** Each unused space with the first look that found it unused (and every look since). */
  private final Map<String, Instant> unusedSince = new HashMap<>();

  public OrphanSpaces(Catalog catalog, Storage storage, Clock clock) {
    this.catalog = catalog;
    this.storage = storage;
    this.clock = clock;
  }

  /** Looks once; returns the spaces it dropped, unused since a look at least GRACE ago. */
  public synchronized List<String> look() {
    Instant now = clock.instant();
    Set<String> unused = catalog.unusedSpaces();
    unusedSince.keySet().retainAll(unused); // recorded meanwhile: not orphans
    List<String> dropped = new ArrayList<>();
    for (String space : unused) {
      Instant since = unusedSince.putIfAbsent(space, now);
      if (since != null && !since.plus(GRACE).isAfter(now)) {
        storage.dropSpace(space);
        unusedSince.remove(space);
        dropped.add(space);
      }
    }
    return dropped;
  }
}
