package io.stator.backup;

import io.stator.item.ItemCodec;
import io.stator.schema.Catalog;
import io.stator.schema.SpaceNames;
import io.stator.schema.TableDefinition;
import io.stator.storage.StorageException;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A backup's record: its id (creation milliseconds and a random suffix, so ids sort by creation
 * time), name, status, ARN, creation time, the size and item count of its copy, the table's
 * definition when it was taken, and its type: {@link #USER} for CreateBackup's, {@link
 * #POINT_IN_TIME} for the copy of a table as of a time that RestoreTableToPointInTime makes and
 * restores from, which no backup operation shows and which goes once its restore is done; {@link
 * #EXPORT} for the copy an export reads, named after the export, which no backup operation shows
 * either and which the export drops (done, or settled once cut short, {@link
 * OnDemandBackups#forgetExportCopy}), not a start, as another server may be exporting; and
 * {@link #SYSTEM} for the backup DeleteTable leaves of a table with point-in-time recovery
 * enabled, kept {@link #SYSTEM_RETENTION}. Stored as a format version byte and the fields as an item
 * ({@link ItemCodec}), the definition in the catalog's own versioned encoding.
 */
record StoredBackup(
    String id,
    String name,
    String status,
    String arn,
    Instant created,
    long sizeBytes,
    long itemCount,
    TableDefinition table,
    String type) {
  static final String USER = "USER";
  static final String POINT_IN_TIME = "POINT_IN_TIME";
  static final String EXPORT = "EXPORT";
  static final String SYSTEM = "SYSTEM";
  /** How long a SYSTEM backup is kept, as DynamoDB keeps it: 35 days from its creation. */
  static final Duration SYSTEM_RETENTION = Duration.ofDays(35);
  static final String CREATING = "CREATING";
  static final String AVAILABLE = "AVAILABLE";
  static final String DELETED = "DELETED";
  private static final byte FORMAT_VERSION = 1;

  /** Whether a backup operation shows it (RestoreTableToPointInTime's copies it does not). */
  boolean listed() {
    return type.equals(USER) || type.equals(SYSTEM);
  }

  /** When a SYSTEM backup expires; null for a USER backup, which is kept until deleted. */
  Instant expires() {
    return type.equals(SYSTEM) ? created.plus(SYSTEM_RETENTION) : null;
  }

  /** Whether it has expired at {@code now}: from then on it is as if deleted. */
  boolean expiredAt(Instant now) {
    Instant expires = expires();
    return expires != null && !now.isBefore(expires);
  }

  /** The space that holds the backup's items. */
  String space() {
    return space(id);
  }

  static String space(String id) {
    return SpaceNames.backup(id);
  }

  StoredBackup with(String newStatus, long size, long count) {
    return new StoredBackup(id, name, newStatus, arn, created, size, count, table, type);
  }

  byte[] encode() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("id", new AttributeValue.S(id));
    m.put("name", new AttributeValue.S(name));
    m.put("status", new AttributeValue.S(status));
    m.put("arn", new AttributeValue.S(arn));
    m.put("created", number(created.toEpochMilli()));
    m.put("size", number(sizeBytes));
    m.put("items", number(itemCount));
    m.put("table", new AttributeValue.B(Bytes.wrap(Catalog.encode(table))));
    if (!type.equals(USER)) {
      m.put("type", new AttributeValue.S(type)); // absent: USER, as records before types were
    }
    byte[] fields = ItemCodec.encode(m);
    byte[] out = new byte[fields.length + 1];
    out[0] = FORMAT_VERSION;
    System.arraycopy(fields, 0, out, 1, fields.length);
    return out;
  }

  static StoredBackup decode(byte[] bytes) {
    if (bytes.length == 0 || bytes[0] != FORMAT_VERSION) {
      throw new StorageException("unknown backup record format version "
          + (bytes.length == 0 ? "(empty)" : String.valueOf(bytes[0] & 0xFF))
          + "; this release reads version " + FORMAT_VERSION);
    }
    Map<String, AttributeValue> m = ItemCodec.decode(Arrays.copyOfRange(bytes, 1, bytes.length));
    return new StoredBackup(
        text(m.get("id")),
        text(m.get("name")),
        text(m.get("status")),
        text(m.get("arn")),
        Instant.ofEpochMilli(Long.parseLong(text(m.get("created")))),
        Long.parseLong(text(m.get("size"))),
        Long.parseLong(text(m.get("items"))),
        Catalog.decode(((AttributeValue.B) m.get("table")).value().toByteArray()),
        m.containsKey("type") ? text(m.get("type")) : USER);
  }

  private static AttributeValue number(long n) {
    return new AttributeValue.N(Long.toString(n));
  }

  private static String text(AttributeValue v) {
    return v instanceof AttributeValue.S s ? s.value() : ((AttributeValue.N) v).value();
  }
}
