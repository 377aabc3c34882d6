package io.stator.schema;

import io.stator.api.DynamoDbException;
import io.stator.item.ItemCodec;
import io.stator.storage.Commit;
import io.stator.storage.OnConflict;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The table definitions, kept in the storage itself (space {@value #SPACE}) so that a restart
 * finds every table as it was, and so that a distributed storage shares one catalog among all
 * nodes.
 *
 * <p>One record per table, keyed by the table name's bytes (so the space is in name order, which
 * is ListTables' order). The value is a catalog format version byte followed by the definition's
 * fields encoded as an item (see {@link ItemCodec}): named fields let a later release add fields
 * and still read old records, and the version byte lets it refuse records it cannot understand.
 *
 * <p>Changes are commits with version expectations: two concurrent CreateTable calls for one
 * name cannot both win, and an UpdateTable cannot overwrite a concurrent DeleteTable.
 *
 * <p>Every item write expects its table's definition to be the one it was computed against
 * ({@link Entry#expectUnchanged}). Expecting the record itself would make every write of a table
 * read one key, which a distributed store orders all of them on (on Cassandra, every PutItem of
 * the table would be an Accord transaction on one partition beside its item's). So each change
 * of a record also writes, in its commit, {@value #FENCES_PER_TABLE} <em>fences</em> of the table
 * (space {@value #FENCES}): empty records that the commit gives the record's own version, since a
 * commit gives all its puts one version (see {@link Storage}). A write expects the fence of its
 * item's partition at the version of the definition it holds: the fence has that version exactly
 * while the record does, and the writes of a table spread over its fences as its items spread
 * over partitions. A record written before fences existed says so (it lacks the field {@code
 * fenced}): writes of its table expect the record itself until its next change writes fences.
 */
public final class Catalog {
  public static final String SPACE = "catalog";
  /** The definitions of deleted tables, kept while their streams are readable. */
  public static final String RETIRED = "catalog.retired";
  /** How long a disabled stream stays readable: 24 hours, as DynamoDB keeps stream records. */
  static final long STREAM_RETENTION_MILLIS = 24L * 60 * 60 * 1000;
  /** The fences of every table's record (see above), keyed by {@link #fence}. */
  public static final String FENCES = "catalog.fences";
  /** Fences per table: the item partitions' first bytes fall evenly on these many. */
  static final int FENCES_PER_TABLE = 64;
  static final int FORMAT_VERSION = 1;

  private final Storage storage;
  /**
   * The last definition decoded per table name, with the version of the record it came from.
   * Only a memo of the decoding, never of the storage: every {@link #get} still reads the record
   * and uses the memo only when the record's version is the memo's. A version is never reused
   * for a key, also across deletes (see {@link Storage}), so an equal version means the same
   * bytes; this holds whoever changed the catalog, another process on a shared storage included,
   * and needs no invalidation. It saves the decoding for the readers that must see the
   * storage's current record: GSI propagation (once per batch of changes), backfills, the Time
   * to Live sweeper, and the engine's table operations.
   */
  private final ConcurrentHashMap<String, Entry> decoded = new ConcurrentHashMap<>();

  public Catalog(Storage storage) {
    this.storage = storage;
    storage.createSpace(SPACE);
    storage.createSpace(FENCES);
  }

  /**
   * A definition with the catalog record's version (for optimistic updates), and whether the
   * record's fences were written with it (every record this release writes).
   */
  public record Entry(TableDefinition table, long version, boolean fenced) {
    /**
     * Adds to {@code commit} the expectation that the table's definition is still this one, for
     * a write of the item at {@code item} (a key of the table's items or of its indexes: any key
     * whose partition begins with the item's hash).
     */
    public void expectUnchanged(Commit commit, StorageKey item) {
      if (fenced) {
        commit.expect(FENCES, fence(table.name(), item), version);
      } else {
        expectUnchanged(commit);
      }
    }

    /**
     * As above, for a commit of no one item (a batch of a background job, rare enough to read
     * the record itself, which every change moves with its fences).
     */
    public Commit expectUnchanged(Commit commit) {
      return commit.expect(SPACE, key(table.name()), version);
    }
  }

  public Optional<Entry> get(String tableName) {
    Optional<StoredRecord> record = storage.get(SPACE, key(tableName));
    if (record.isEmpty()) {
      decoded.remove(tableName); // bounds the memo by the tables that exist
      return Optional.empty();
    }
    return Optional.of(entry(tableName, record.get()));
  }

  private Entry entry(String tableName, StoredRecord r) {
    Entry known = decoded.get(tableName);
    if (known != null && known.version() == r.version()) {
      return known;
    }
    Map<String, AttributeValue> fields = fields(r.value());
    Entry entry = new Entry(definition(fields), r.version(), fields.containsKey("fenced"));
    // A racing get may store an older entry over this one; that costs a later decoding only.
    decoded.put(tableName, entry);
    return entry;
  }

  /**
   * Records a new table and creates its spaces (items, indexes, change log);
   * ResourceInUseException if the name exists.
   */
  public void create(TableDefinition table) {
    if (table.streams().stream().anyMatch(StreamDefinition::shared)) {
      storage.createSpace(StreamDefinition.SHARED_SPACE);
    }
    for (String space : spaces(table)) {
      boolean unused =
          (space.equals(table.changeLog()) && !table.hasGlobalIndexes())
              || (space.equals(table.itemCollections()) && !table.hasLocalIndexes())
              || (space.equals(table.history())
                  && !table.settings().pointInTimeRecovery().enabled());
      if (!unused) {
        storage.createSpace(space);
      }
    }
    Commit record =
        putWithFences(
            new Commit().expect(SPACE, key(table.name()), Commit.Expectation.ABSENT), table);
    OnConflict.answer(() -> storage.commit(record), conflict -> {
      for (String space : spaces(table)) {
        storage.dropSpace(space);
      }
      throw DynamoDbException.resourceInUse("Table already exists: " + table.name());
    });
  }

  /**
   * Every space of a table: its items, each index, its change log (which exists once the table
   * has had a global secondary index), its item collection sizes (which exist for a table with
   * a local secondary index) and the records of each stream it keeps in a space of its own
   * (streams made before the shared space, see {@link StreamDefinition#space}); dropping an
   * absent space does nothing.
   */
  public static List<String> spaces(TableDefinition table) {
    List<String> out = new ArrayList<>();
    out.add(table.space());
    for (IndexDefinition index : table.indexes()) {
      out.add(index.space());
    }
    out.add(table.changeLog());
    out.add(table.itemCollections());
    out.add(table.history());
    for (StreamDefinition stream : table.streams()) {
      if (!stream.shared()) {
        out.add(stream.space(table.tableId()));
      }
    }
    return out;
  }

  /** Replaces a definition if its record still has {@code version}. */
  public void replace(TableDefinition table, long version) {
    storage.commit(putWithFences(new Commit().expect(SPACE, key(table.name()), version), table));
  }

  /** Puts the table's record and its fences, which the commit gives one version. */
  private static Commit putWithFences(Commit commit, TableDefinition table) {
    commit.put(SPACE, key(table.name()), encode(table, true));
    for (int i = 0; i < FENCES_PER_TABLE; i++) {
      commit.put(FENCES, fence(table.name(), i), new byte[0]);
    }
    return commit;
  }

  /**
   * Removes a table and drops its items, indexes and change log, if its record still has {@code
   * version}. Its streams stay readable for 24 hours, as DynamoDB keeps the stream of a deleted
   * table: in the same commit, the definition moves to the space {@value #RETIRED} (keyed by
   * TableId) with its enabled stream disabled at {@code now}, and the streams' spaces stay
   * until {@link #forgetRetired}.
   */
  public void delete(TableDefinition table, long version, Instant now) {
    delete(table, version, now, t -> { });
  }

  /**
   * As {@link #delete(TableDefinition, long, Instant)}, telling {@code committed} of the table
   * once its record is gone and before its spaces are dropped (the SYSTEM backup of a table
   * with point-in-time recovery is taken there); the spaces are dropped whatever it throws.
   */
  public void delete(TableDefinition table, long version, Instant now,
      Consumer<TableDefinition> committed) {
    List<StreamDefinition> kept = new ArrayList<>();
    for (StreamDefinition s : table.streams()) {
      StreamDefinition closed = s.enabled() ? s.disabledAt(now) : s;
      if (closed.disabled().toEpochMilli() + STREAM_RETENTION_MILLIS > now.toEpochMilli()) {
        kept.add(closed);
      }
    }
    Commit commit =
        new Commit().expect(SPACE, key(table.name()), version).delete(SPACE, key(table.name()));
    for (int i = 0; i < FENCES_PER_TABLE; i++) {
      commit.delete(FENCES, fence(table.name(), i));
    }
    TableDefinition retired = table.withStreams(kept);
    if (!kept.isEmpty()) {
      storage.createSpace(RETIRED); // made when first needed: most stores never have one
      commit.put(RETIRED, retiredKey(table), encode(retired));
    }
    storage.commit(commit);
    List<String> keep = kept.isEmpty() ? List.of() : retiredSpaces(retired);
    try {
      committed.accept(table);
    } finally {
      for (String space : spaces(table)) {
        if (!keep.contains(space)) {
          storage.dropSpace(space);
        }
      }
    }
  }

  /** The definitions of deleted tables whose streams may still be readable, by TableId. */
  public List<TableDefinition> retired() {
    List<TableDefinition> out = new ArrayList<>();
    if (!storage.spaces().contains(RETIRED)) {
      return out;
    }
    for (StoredRecord r : storage.scan(RETIRED, null, null, null, Integer.MAX_VALUE)) {
      out.add(decode(r.value()));
    }
    return out;
  }

  /**
   * Forgets a deleted table's streams for good (once 24 hours have passed), after their records
   * were deleted (see {@code Streams.deleteRecords}).
   */
  public void forgetRetired(TableDefinition table) {
    storage.commit(new Commit().delete(RETIRED, retiredKey(table)));
  }

  private static StorageKey retiredKey(TableDefinition table) {
    return StorageKey.of(table.tableId().getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> retiredSpaces(TableDefinition table) {
    List<String> out = new ArrayList<>();
    for (StreamDefinition s : table.streams()) {
      if (!s.shared()) {
        out.add(s.space(table.tableId()));
      }
    }
    return out;
  }

  /** The catalog key of a table, for commits that must fail if the definition changes. */
  public static StorageKey key(String tableName) {
    return StorageKey.of(tableName.getBytes(StandardCharsets.UTF_8));
  }

  /** The table name a catalog key is of; see {@link #key}. */
  public static String tableName(StorageKey key) {
    return new String(key.partition(), StandardCharsets.UTF_8);
  }

  /**
   * The fence of {@code tableName} that a write of {@code item} expects: the one whose first
   * byte is the item partition's first byte with its two low bits cleared, so that the fences'
   * keys spread as the items' do (a distributed store places keys by that byte, see {@code
   * docs/cassandra.md}).
   */
  static StorageKey fence(String tableName, StorageKey item) {
    byte[] p = item.partition();
    return fence(tableName, p.length == 0 ? 0 : (p[0] & 0xFF) * FENCES_PER_TABLE / 256);
  }

  private static StorageKey fence(String tableName, int i) {
    byte[] name = tableName.getBytes(StandardCharsets.UTF_8);
    byte[] key = new byte[name.length + 1];
    key[0] = (byte) (i * 256 / FENCES_PER_TABLE);
    System.arraycopy(name, 0, key, 1, name.length);
    return StorageKey.of(key);
  }

  /**
   * The table whose definition changed, when {@code failed} (the expectation a commit failed
   * on) is on a catalog record or one of its fences; empty otherwise.
   */
  public static Optional<String> changedTable(Commit.Expectation failed) {
    if (failed.space().equals(SPACE)) {
      return Optional.of(tableName(failed.key()));
    }
    if (failed.space().equals(FENCES)) {
      byte[] p = failed.key().partition();
      return Optional.of(new String(p, 1, p.length - 1, StandardCharsets.UTF_8));
    }
    return Optional.empty();
  }

  /** Table names in order, strictly after {@code exclusiveStart} when given. */
  public List<String> names(String exclusiveStart, int limit) {
    StorageKey after = exclusiveStart == null ? null : key(exclusiveStart);
    List<String> names = new ArrayList<>();
    for (StoredRecord r : storage.scan(SPACE, null, null, after, limit)) {
      names.add(tableName(r.key()));
    }
    return names;
  }

  /** Every table definition, in name order. */
  public List<Entry> all() {
    List<Entry> out = new ArrayList<>();
    for (StoredRecord r : storage.scan(SPACE, null, null, null, Integer.MAX_VALUE)) {
      out.add(entry(tableName(r.key()), r));
    }
    return out;
  }

  /**
   * The item, index, change-log, collection, stream and history spaces that no table and no
   * retired table refers to now. The catalog is read before the spaces are listed, so a space
   * created meanwhile may be one of a table about to be recorded: see {@link OrphanSpaces}, the
   * one caller, for why such a space is not dropped at once.
   */
  Set<String> unusedSpaces() {
    Set<String> used = new HashSet<>();
    for (Entry e : all()) {
      used.addAll(spaces(e.table()));
    }
    for (TableDefinition t : retired()) {
      used.addAll(retiredSpaces(t));
    }
    Set<String> unused = new HashSet<>();
    for (String space : storage.spaces()) {
      if (SpaceNames.isOfATable(space) && !used.contains(space)) {
        unused.add(space);
      }
    }
    return unused;
  }

  // ---- encoding ---------------------------------------------------------------------------

  /** A definition in the catalog's versioned encoding (a backup keeps its table's so). */
  public static byte[] encode(TableDefinition t) {
    return encode(t, false);
  }

  /** As above; {@code fenced} for a catalog record written with its fences. */
  private static byte[] encode(TableDefinition t, boolean fenced) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("name", new AttributeValue.S(t.name()));
    m.put("id", new AttributeValue.S(t.tableId()));
    m.put("space", new AttributeValue.S(t.space()));
    m.put("hash", new AttributeValue.S(t.hashKey().name()));
    if (t.rangeKey() != null) {
      m.put("range", new AttributeValue.S(t.rangeKey().name()));
    }
    List<AttributeValue> defs = new ArrayList<>();
    for (KeyAttribute d : t.attributeDefinitions()) {
      defs.add(
          new AttributeValue.M(
              Map.of("n", new AttributeValue.S(d.name()), "t", new AttributeValue.S(d.type()))));
    }
    m.put("definitions", new AttributeValue.L(defs));
    m.put("billing", new AttributeValue.S(t.billingMode()));
    m.put("rcu", number(t.readCapacityUnits()));
    m.put("wcu", number(t.writeCapacityUnits()));
    m.put("created", instant(t.creationDateTime()));
    putInstant(m, "toPayPerRequest", t.lastUpdateToPayPerRequest());
    putInstant(m, "increase", t.lastIncrease());
    putInstant(m, "decrease", t.lastDecrease());
    m.put("status", new AttributeValue.S(t.status()));
    if (!t.indexes().isEmpty()) {
      List<AttributeValue> indexes = new ArrayList<>();
      for (IndexDefinition i : t.indexes()) {
        indexes.add(new AttributeValue.M(encodeIndex(i)));
      }
      m.put("indexes", new AttributeValue.L(indexes));
    }
    if (!t.timeToLive().equals(TimeToLive.DISABLED)) {
      m.put("ttl", timeToLive(t.timeToLive()));
    }
    if (!t.contributorInsights().isEmpty()) {
      List<AttributeValue> insights = new ArrayList<>();
      for (ContributorInsights c : t.contributorInsights()) {
        insights.add(contributorInsights(c));
      }
      m.put("insights", new AttributeValue.L(insights));
    }
    if (!t.streams().isEmpty()) {
      List<AttributeValue> streams = new ArrayList<>();
      for (StreamDefinition s : t.streams()) {
        streams.add(stream(s));
      }
      m.put("streams", new AttributeValue.L(streams));
    }
    if (!t.settings().isDefault()) {
      m.put("settings", t.settings().encode());
    }
    if (!t.maxThroughput().isNone()) {
      m.put("onDemand", t.maxThroughput().encode());
    }
    if (fenced) {
      m.put("fenced", new AttributeValue.Bool(true));
    }
    byte[] fields = ItemCodec.encode(m);
    byte[] out = new byte[fields.length + 1];
    out[0] = FORMAT_VERSION;
    System.arraycopy(fields, 0, out, 1, fields.length);
    return out;
  }

  /** A definition {@link #encode} made, in this release or an earlier one. */
  public static TableDefinition decode(byte[] bytes) {
    return definition(fields(bytes));
  }

  private static Map<String, AttributeValue> fields(byte[] bytes) {
    if (bytes.length == 0 || bytes[0] != FORMAT_VERSION) {
      throw new StorageException(
          "unknown catalog format version "
              + (bytes.length == 0 ? "(empty)" : String.valueOf(bytes[0] & 0xFF))
              + "; this release reads version " + FORMAT_VERSION);
    }
    return ItemCodec.decode(Arrays.copyOfRange(bytes, 1, bytes.length));
  }

  private static TableDefinition definition(Map<String, AttributeValue> m) {
    List<KeyAttribute> defs = new ArrayList<>();
    for (AttributeValue v : ((AttributeValue.L) m.get("definitions")).value()) {
      Map<String, AttributeValue> d = ((AttributeValue.M) v).value();
      defs.add(new KeyAttribute(text(d.get("n")), text(d.get("t"))));
    }
    return new TableDefinition(
        text(m.get("name")),
        text(m.get("id")),
        text(m.get("space")),
        find(defs, text(m.get("hash"))),
        m.containsKey("range") ? find(defs, text(m.get("range"))) : null,
        defs,
        text(m.get("billing")),
        Long.parseLong(text(m.get("rcu"))),
        Long.parseLong(text(m.get("wcu"))),
        instant(m.get("created")),
        instant(m.get("toPayPerRequest")),
        instant(m.get("increase")),
        instant(m.get("decrease")),
        text(m.get("status")),
        decodeIndexes(m.get("indexes"), defs),
        timeToLive(m.get("ttl")),
        contributorInsights(m.get("insights")),
        streams(m.get("streams")),
        TableSettings.decode(m.get("settings")),
        MaxThroughput.decode(m.get("onDemand")));
  }

  /**
   * A Contributor Insights setting as a map: {@code index} (absent for the table), {@code
   * enabled}, {@code mode}, {@code updated} (epoch milliseconds). The field {@code insights}
   * holding them is absent when no setting was ever changed, and in records written before it
   * existed: both read as none.
   */
  private static AttributeValue contributorInsights(ContributorInsights c) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    if (c.indexName() != null) {
      m.put("index", new AttributeValue.S(c.indexName()));
    }
    m.put("enabled", new AttributeValue.Bool(c.enabled()));
    m.put("mode", new AttributeValue.S(c.mode()));
    m.put("updated", instant(c.lastUpdateDateTime()));
    return new AttributeValue.M(m);
  }

  private static List<ContributorInsights> contributorInsights(AttributeValue v) {
    List<ContributorInsights> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    for (AttributeValue e : ((AttributeValue.L) v).value()) {
      Map<String, AttributeValue> m = ((AttributeValue.M) e).value();
      out.add(new ContributorInsights(
          m.containsKey("index") ? text(m.get("index")) : null,
          ((AttributeValue.Bool) m.get("enabled")).value(),
          text(m.get("mode")),
          instant(m.get("updated"))));
    }
    return out;
  }

  // An index is a map of named fields, like the table, so later releases can add fields.
  private static Map<String, AttributeValue> encodeIndex(IndexDefinition i) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("name", new AttributeValue.S(i.name()));
    m.put("global", new AttributeValue.Bool(i.global()));
    m.put("hash", names(i.hashKeys()));
    m.put("range", names(i.rangeKeys()));
    m.put("projection", new AttributeValue.S(i.projectionType()));
    List<AttributeValue> include = new ArrayList<>();
    for (String a : i.nonKeyAttributes()) {
      include.add(new AttributeValue.S(a));
    }
    m.put("include", new AttributeValue.L(include));
    m.put("rcu", number(i.readCapacityUnits()));
    m.put("wcu", number(i.writeCapacityUnits()));
    m.put("status", new AttributeValue.S(i.status()));
    m.put("space", new AttributeValue.S(i.space()));
    if (!i.maxThroughput().isNone()) {
      m.put("onDemand", i.maxThroughput().encode());
    }
    return m;
  }

  private static List<IndexDefinition> decodeIndexes(AttributeValue v, List<KeyAttribute> defs) {
    List<IndexDefinition> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    for (AttributeValue e : ((AttributeValue.L) v).value()) {
      Map<String, AttributeValue> m = ((AttributeValue.M) e).value();
      List<String> include = new ArrayList<>();
      for (AttributeValue a : ((AttributeValue.L) m.get("include")).value()) {
        include.add(text(a));
      }
      out.add(new IndexDefinition(
          text(m.get("name")),
          ((AttributeValue.Bool) m.get("global")).value(),
          keys(m.get("hash"), defs),
          keys(m.get("range"), defs),
          text(m.get("projection")),
          include,
          Long.parseLong(text(m.get("rcu"))),
          Long.parseLong(text(m.get("wcu"))),
          text(m.get("status")),
          text(m.get("space")),
          MaxThroughput.decode(m.get("onDemand"))));
    }
    return out;
  }

  private static AttributeValue names(List<KeyAttribute> keys) {
    List<AttributeValue> out = new ArrayList<>();
    for (KeyAttribute k : keys) {
      out.add(new AttributeValue.S(k.name()));
    }
    return new AttributeValue.L(out);
  }

  private static List<KeyAttribute> keys(AttributeValue v, List<KeyAttribute> defs) {
    List<KeyAttribute> out = new ArrayList<>();
    for (AttributeValue a : ((AttributeValue.L) v).value()) {
      out.add(find(defs, text(a)));
    }
    return out;
  }

  /**
   * The Time to Live setting as a map field {@code ttl}: {@code enabled}, {@code attribute} (while
   * enabled), {@code modified} (epoch milliseconds). Absent in records of tables that never had
   * TTL, and in records written before the field existed: both read as disabled.
   */
  private static AttributeValue timeToLive(TimeToLive ttl) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("enabled", new AttributeValue.Bool(ttl.enabled()));
    if (ttl.attributeName() != null) {
      m.put("attribute", new AttributeValue.S(ttl.attributeName()));
    }
    putInstant(m, "modified", ttl.lastModified());
    return new AttributeValue.M(m);
  }

  private static TimeToLive timeToLive(AttributeValue v) {
    if (v == null) {
      return TimeToLive.DISABLED;
    }
    Map<String, AttributeValue> m = ((AttributeValue.M) v).value();
    return new TimeToLive(
        ((AttributeValue.Bool) m.get("enabled")).value(),
        m.containsKey("attribute") ? text(m.get("attribute")) : null,
        instant(m.get("modified")));
  }

  /**
   * A stream as a map field: {@code created} (epoch milliseconds), {@code view}, {@code disabled}
   * (epoch milliseconds, once disabled), {@code partitions} (a list of partition starts, once
   * recorded) and {@code splits} (a list of maps {@code s} sequence number, {@code at} split
   * point, once a partition split) and {@code shared} (true, for a stream whose records are in
   * the shared space). The list {@code streams} is absent from records of tables
   * that never had a stream, and from records written before the field existed; the partition
   * fields are absent until recorded, and from records written before they existed.
   */
  private static AttributeValue stream(StreamDefinition s) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("created", instant(s.created()));
    m.put("view", new AttributeValue.S(s.viewType()));
    putInstant(m, "disabled", s.disabled());
    if (s.shared()) {
      m.put("shared", new AttributeValue.Bool(true));
    }
    if (!s.partitions().isEmpty()) {
      List<AttributeValue> starts = new ArrayList<>();
      for (long start : s.partitions()) {
        starts.add(number(start));
      }
      m.put("partitions", new AttributeValue.L(starts));
    }
    if (!s.splits().isEmpty()) {
      List<AttributeValue> splits = new ArrayList<>();
      for (StreamDefinition.Split split : s.splits()) {
        splits.add(new AttributeValue.M(
            Map.of("s", number(split.sequenceNumber()), "at", number(split.at()))));
      }
      m.put("splits", new AttributeValue.L(splits));
    }
    return new AttributeValue.M(m);
  }

  private static long longOf(AttributeValue v) {
    return Long.parseLong(((AttributeValue.N) v).value());
  }

  private static List<StreamDefinition> streams(AttributeValue v) {
    List<StreamDefinition> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    for (AttributeValue e : ((AttributeValue.L) v).value()) {
      Map<String, AttributeValue> m = ((AttributeValue.M) e).value();
      List<Long> starts = new ArrayList<>();
      if (m.containsKey("partitions")) {
        for (AttributeValue start : ((AttributeValue.L) m.get("partitions")).value()) {
          starts.add(longOf(start));
        }
      }
      List<StreamDefinition.Split> splits = new ArrayList<>();
      if (m.containsKey("splits")) {
        for (AttributeValue split : ((AttributeValue.L) m.get("splits")).value()) {
          Map<String, AttributeValue> f = ((AttributeValue.M) split).value();
          splits.add(new StreamDefinition.Split(longOf(f.get("s")), longOf(f.get("at"))));
        }
      }
      out.add(new StreamDefinition(
          instant(m.get("created")), text(m.get("view")), instant(m.get("disabled")), starts,
          splits, m.containsKey("shared")));
    }
    return out;
  }

  private static KeyAttribute find(List<KeyAttribute> defs, String name) {
    for (KeyAttribute d : defs) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    throw new StorageException("corrupt catalog record: key " + name + " has no definition");
  }

  private static AttributeValue number(long n) {
    return new AttributeValue.N(Long.toString(n));
  }

  private static AttributeValue instant(Instant i) {
    return new AttributeValue.N(Long.toString(i.toEpochMilli()));
  }

  private static void putInstant(Map<String, AttributeValue> m, String name, Instant i) {
    if (i != null) {
      m.put(name, instant(i));
    }
  }

  private static Instant instant(AttributeValue v) {
    return v == null ? null : Instant.ofEpochMilli(Long.parseLong(text(v)));
  }

  private static String text(AttributeValue v) {
    if (v instanceof AttributeValue.S s) {
      return s.value();
    }
    return ((AttributeValue.N) v).value();
  }
}
