package io.stator.export;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.capacity.ContributorInsightsUpdates;
import io.stator.item.ItemCodec;
import io.stator.lease.JobLeases;
import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The records of exports or of imports: one space each ({@code exports}, {@code imports}), one
 * partition of records by id (ids begin with their creation time, so the records are in creation
 * order, which the List operations page through). A record is a format version byte and its
 * fields as an item ({@link ItemCodec}); a field of a description that is null is absent.
 */
final class JobRecords {
  /** The statuses an export and an import share. */
  static final String IN_PROGRESS = "IN_PROGRESS";
  static final String COMPLETED = "COMPLETED";
  static final String FAILED = "FAILED";
  private static final byte FORMAT_VERSION = 1;
  private static final byte[] PARTITION = "job".getBytes(StandardCharsets.UTF_8);
  private static final int READ_CHUNK = 100;

  private final Storage storage;
  private final String space;

  JobRecords(Storage storage, String space) {
    this.storage = storage;
    this.space = space;
    storage.createSpace(space);
  }

  /** Records a new job. */
  void put(String id, Map<String, AttributeValue> fields) {
    storage.commit(new Commit().put(space, key(id), encode(fields)));
  }

  /**
   * Replaces the record {@code id} by {@code change} of it if it is still IN_PROGRESS, in a
   * commit expecting the version read: false, and nothing written, when it is not (ended, or
   * settled by another engine meanwhile). So a job's end and another engine's settling of it,
   * or two engines settling it, never both apply: the second finds the first's record.
   */
  boolean replaceInProgress(String id,
      UnaryOperator<Map<String, AttributeValue>> change) {
    Optional<StoredRecord> stored = storage.get(space, key(id));
    if (stored.isEmpty()) {
      return false;
    }
    Map<String, AttributeValue> now = fields(stored.get());
    if (!IN_PROGRESS.equals(s(now, "status"))) {
      return false;
    }
    try {
      storage.commit(new Commit().expect(space, key(id), stored.get().version())
          .put(space, key(id), encode(change.apply(now))));
      return true;
    } catch (CommitConflictException e) {
      return false;
    }
  }

  private static byte[] encode(Map<String, AttributeValue> fields) {
    byte[] encoded = ItemCodec.encode(fields);
    byte[] value = new byte[encoded.length + 1];
    value[0] = FORMAT_VERSION;
    System.arraycopy(encoded, 0, value, 1, encoded.length);
    return value;
  }

  Optional<Map<String, AttributeValue>> get(String id) {
    return storage.get(space, key(id)).map(this::fields);
  }

  /** The record {@code arn} names, an ARN of the kind {@code part} names; empty when none. */
  Optional<Map<String, AttributeValue>> byArn(String arn, String part) {
    String id = JobIds.idOf(arn, part);
    return id == null ? Optional.empty() : get(id).filter(m -> arn.equals(s(m, "arn")));
  }

  /** Up to {@code limit} records after {@code afterId} (from the first when null), by id. */
  List<Map<String, AttributeValue>> after(String afterId, int limit) {
    Bound lower = afterId == null ? null
        : Bound.exclusive(afterId.getBytes(StandardCharsets.UTF_8));
    List<Map<String, AttributeValue>> out = new ArrayList<>();
    for (StoredRecord r : storage.query(space, PARTITION, lower, null, true, limit)) {
      out.add(fields(r));
    }
    return out;
  }

  /** A page of a List operation, and the id of its last record when more follow. */
  record Page<T>(List<T> items, String lastId) {}

  /**
   * The records after {@code afterId} (from the first when null) of the table {@code table} (a
   * name or ARN; every table's when null), at most {@code limit}, decoded.
   */
  <T> Page<T> page(String afterId, String table, int limit,
      Function<Map<String, AttributeValue>, T> decode) {
    String name = table == null ? null : ContributorInsightsUpdates.tableNameOf(table);
    List<T> page = new ArrayList<>();
    String after = afterId;
    String last = null;
    while (true) {
      List<Map<String, AttributeValue>> chunk = after(after, READ_CHUNK);
      for (Map<String, AttributeValue> record : chunk) {
        after = id(record);
        if (name != null
            && !ContributorInsightsUpdates.tableNameOf(s(record, "tableArn")).equals(name)) {
          continue;
        }
        if (page.size() == limit) {
          return new Page<>(page, last);
        }
        page.add(decode.apply(record));
        last = after;
      }
      if (chunk.size() < READ_CHUNK) {
        return new Page<>(page, null);
      }
    }
  }

  /** Calls {@code each} with every record, in id order (to settle those cut short). */
  void forEach(Consumer<Map<String, AttributeValue>> each) {
    for (String after = null; ; ) {
      List<Map<String, AttributeValue>> chunk = after(after, READ_CHUNK);
      chunk.forEach(each);
      if (chunk.size() < READ_CHUNK) {
        return;
      }
      after = id(chunk.get(chunk.size() - 1));
    }
  }

  /**
   * Settles with {@code settle} each job recorded IN_PROGRESS that no engine runs any more
   * ({@link JobLeases#orphaned}), holding its lease until it is settled.
   */
  void settleOrphans(JobLeases held, Consumer<Map<String, AttributeValue>> settle) {
    forEach(r -> {
      String id = id(r);
      if (!IN_PROGRESS.equals(s(r, "status")) || !held.orphaned(id)) {
        return;
      }
      try {
        settle.accept(r);
      } finally {
        held.release(id);
      }
    });
  }

  /**
   * The record a request with the client token {@code token} made less than 8 hours before
   * {@code now}, DynamoDB's idempotency window for exports and imports; empty when none. A
   * walk over the records, which are few: an export or import is a rare request.
   */
  Optional<Map<String, AttributeValue>> byToken(String token, Instant now) {
    Instant since = now.minus(Duration.ofHours(8));
    List<Map<String, AttributeValue>> found = new ArrayList<>();
    forEach(r -> {
      if (token.equals(s(r, "token")) && t(r, "start").isAfter(since)) {
        found.add(r);
      }
    });
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
  }

  /**
   * The record of an earlier request with the client token {@code token} (see {@link #byToken}),
   * which this request retries; empty for a new request. The same token with other parameters
   * is the {@code conflict} error, the job named by {@code job} ("export", "import").
   *
   * @param fingerprint this request's {@link #fingerprint}
   */
  Optional<Map<String, AttributeValue>> retried(String token, String fingerprint, Instant now,
      ErrorType conflict, String job) {
    if (token == null) {
      return Optional.empty();
    }
    Optional<Map<String, AttributeValue>> earlier = byToken(token, now);
    if (earlier.isPresent() && !fingerprint.equals(s(earlier.get(), "fingerprint"))) {
      throw new DynamoDbException(conflict, "ClientToken " + token + " was given to another "
          + job + " with other parameters within the last 8 hours: use a new token for a new "
          + job + ".");
    }
    return earlier;
  }

  /** What tells two requests with one client token apart: a digest of all their members. */
  static String fingerprint(Object request) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(request.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** A record's id: the last part of its ARN. */
  static String id(Map<String, AttributeValue> record) {
    String arn = s(record, "arn");
    return arn.substring(arn.lastIndexOf('/') + 1);
  }

  private Map<String, AttributeValue> fields(StoredRecord r) {
    byte[] v = r.value();
    if (v.length == 0 || v[0] != FORMAT_VERSION) {
      throw new StorageException("unknown " + space + " record format version "
          + (v.length == 0 ? "(empty)" : String.valueOf(v[0] & 0xFF))
          + "; this release reads version " + FORMAT_VERSION);
    }
    return ItemCodec.decode(Arrays.copyOfRange(v, 1, v.length));
  }

  private static StorageKey key(String id) {
    return new StorageKey(PARTITION, id.getBytes(StandardCharsets.UTF_8));
  }

  /** A record's fields, written by name; null values are left out. */
  static final class Fields {
    final Map<String, AttributeValue> map = new LinkedHashMap<>();

    Fields s(String name, String value) {
      if (value != null) {
        map.put(name, new AttributeValue.S(value));
      }
      return this;
    }

    Fields n(String name, Long value) {
      if (value != null) {
        map.put(name, new AttributeValue.N(Long.toString(value)));
      }
      return this;
    }

    Fields t(String name, Instant value) {
      return n(name, value == null ? null : value.toEpochMilli());
    }

    Fields m(String name, Map<String, AttributeValue> value) {
      if (value != null) {
        map.put(name, new AttributeValue.M(value));
      }
      return this;
    }
  }

  static String s(Map<String, AttributeValue> m, String name) {
    return m.get(name) instanceof AttributeValue.S s ? s.value() : null;
  }

  static Long n(Map<String, AttributeValue> m, String name) {
    return m.get(name) instanceof AttributeValue.N n ? Long.valueOf(n.value()) : null;
  }

  static Instant t(Map<String, AttributeValue> m, String name) {
    Long millis = n(m, name);
    return millis == null ? null : Instant.ofEpochMilli(millis);
  }

  static Map<String, AttributeValue> m(Map<String, AttributeValue> m, String name) {
    return m.get(name) instanceof AttributeValue.M v ? v.value() : null;
  }
}
