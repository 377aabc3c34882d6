package io.stator.index;

import io.stator.api.DynamoDbException;
import io.stator.item.ItemSize;
import io.stator.key.KeyCodec;
import io.stator.schema.IndexDefinition;
import io.stator.schema.KeyAttribute;
import io.stator.schema.TableDefinition;
import io.stator.storage.Bound;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Index entries: which items an index holds, under which storage key, with which attributes.
 *
 * <p>An entry's key is {@code (index partition bytes, index sort bytes + table key bytes)}:
 *
 * <ul>
 *   <li>index partition bytes: {@link KeyCodec#partition} of the index partition key value (so an
 *       LSI shares its table's partitions, and every index partition starts with the 8-byte hash
 *       that parallel Scan segments split);
 *   <li>index sort bytes: each sort key value in its escaped, self-delimiting form (the partition
 *       encoding without the hash), so that appending more bytes cannot reorder two sort values;
 *   <li>table key bytes: the item's partition bytes and sort bytes, which make the key unique per
 *       item: many items may share one index key value (GSI keys need not be unique), and each
 *       keeps its own entry, ordered by table key within equal index keys. Paging is then exact:
 *       an ExclusiveStartKey naming index key and table key is one point in this order.
 * </ul>
 *
 * <p>The entry's value is the projected item (item codec): table keys, index keys, and the
 * INCLUDE attributes or the whole item for ALL.
 *
 * <p>Sparse indexes: an item lacking an index key attribute (or holding it with another type,
 * which writes reject beforehand) has no entry.
 */
public final class IndexKeys {
  /**
   * DynamoDB's limits on a key value, of a table or an index: 2048 bytes for a partition key,
   * 1024 for a sort key.
   */
  static final int MAX_PARTITION_KEY_BYTES = 2048;

  static final int MAX_SORT_KEY_BYTES = 1024;

  private IndexKeys() {}

  /**
   * Rejects an item whose index key attributes have the wrong type or are empty, with DynamoDB's
   * messages naming the index.
   */
  public static void checkItem(TableDefinition table, Map<String, AttributeValue> item) {
    check(table, item, false);
  }

  /**
   * As {@link #checkItem}, for the item an UpdateItem leaves: DynamoDB words an empty index key
   * there as the update expression's doing, without naming the index.
   */
  public static void checkUpdatedItem(TableDefinition table, Map<String, AttributeValue> item) {
    check(table, item, true);
  }

  /**
   * The refusal of an item with an empty secondary index key value (of the index key's type), or
   * null: in TransactWriteItems DynamoDB refuses an empty one for the whole request, in a put's
   * words or, for an Update's result, an update's ({@code updated}), while a key of the wrong
   * type only cancels its action.
   */
  public static DynamoDbException emptyKey(
      TableDefinition table, Map<String, AttributeValue> item, boolean updated) {
    for (IndexDefinition index : table.indexes()) {
      for (KeyAttribute key : index.keyAttributes()) {
        AttributeValue value = item.get(key.name());
        if (value != null && !table.isKey(key.name()) && value.type().equals(key.type())
            && isEmpty(value)) {
          return emptyKey(index, key, value, updated);
        }
      }
    }
    return null;
  }

  private static DynamoDbException emptyKey(
      IndexDefinition index, KeyAttribute key, AttributeValue value, boolean updated) {
    String type = value instanceof AttributeValue.B ? "binary" : "string";
    if (updated) {
      return DynamoDbException.validation(
          "One or more parameter values are not valid. The update expression attempted to"
              + " update a secondary index key to a value that is not supported. The"
              + " AttributeValue for a key attribute cannot contain an empty " + type + " value.");
    }
    return DynamoDbException.validation(
        "One or more parameter values are not valid. A value specified for a secondary"
            + " index key is not supported. The AttributeValue for a key attribute cannot"
            + " contain an empty " + type + " value. IndexName: " + index.name() + ", IndexKey: "
            + key.name());
  }

  private static void check(
      TableDefinition table, Map<String, AttributeValue> item, boolean updated) {
    for (IndexDefinition index : table.indexes()) {
      for (KeyAttribute key : index.keyAttributes()) {
        AttributeValue value = item.get(key.name());
        if (value == null || table.isKey(key.name())) {
          continue;
        }
        if (!value.type().equals(key.type())) {
          throw DynamoDbException.validation(
              "One or more parameter values were invalid: Type mismatch for Index Key "
                  + key.name() + " Expected: " + key.type() + " Actual: " + value.type()
                  + " IndexName: " + index.name());
        }
        if (isEmpty(value)) {
          throw emptyKey(index, key, value, updated);
        }
        boolean hash = index.hashKeys().contains(key);
        if (oversize(value, hash)) {
          // The words DynamoDB uses for the table's own keys.
          throw oversized(hash);
        }
      }
    }
  }

  /** The key of an item's entry in an index, or null when the item is not in the index. */
  public static StorageKey entryKey(
      TableDefinition table, IndexDefinition index, Map<String, AttributeValue> item) {
    if (item == null) {
      return null;
    }
    List<AttributeValue> hash = values(index.hashKeys(), item, true);
    List<AttributeValue> range = values(index.rangeKeys(), item, false);
    if (hash == null || range == null) {
      return null;
    }
    byte[] tablePartition = KeyCodec.partition(item.get(table.hashKey().name()));
    byte[] tableSort =
        table.hasRangeKey() ? KeyCodec.sort(item.get(table.rangeKey().name())) : new byte[0];
    ByteArrayOutputStream sort = new ByteArrayOutputStream();
    sort.writeBytes(sortPrefix(range));
    sort.writeBytes(tablePartition);
    sort.writeBytes(tableSort);
    return new StorageKey(partition(hash), sort.toByteArray());
  }

  /** The index partition bytes of partition key values. */
  public static byte[] partition(List<AttributeValue> hashValues) {
    if (hashValues.size() == 1) {
      return KeyCodec.partition(hashValues.get(0));
    }
    // A multi-attribute partition key: the escaped values in order, hashed as one binary value.
    return KeyCodec.partition(new AttributeValue.B(Bytes.of(sortPrefix(hashValues))));
  }

  /** The escaped, self-delimiting bytes of sort key values, in order. */
  public static byte[] sortPrefix(List<AttributeValue> values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (AttributeValue v : values) {
      out.writeBytes(escaped(v));
    }
    return out.toByteArray();
  }

  /** The projected item an index keeps for {@code item}. */
  public static Map<String, AttributeValue> project(
      TableDefinition table, IndexDefinition index, Map<String, AttributeValue> item) {
    if (IndexDefinition.ALL.equals(index.projectionType())) {
      return item;
    }
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (KeyAttribute k : table.keyAttributes()) {
      out.put(k.name(), item.get(k.name()));
    }
    for (KeyAttribute k : index.keyAttributes()) {
      out.put(k.name(), item.get(k.name()));
    }
    for (String a : index.nonKeyAttributes()) {
      AttributeValue v = item.get(a);
      if (v != null) {
        out.put(a, v);
      }
    }
    return out;
  }

  /** True when the index holds {@code attribute} of its items. */
  public static boolean projects(
      TableDefinition table, IndexDefinition index, String attribute) {
    return IndexDefinition.ALL.equals(index.projectionType())
        || table.isKey(attribute)
        || index.isKey(attribute)
        || index.nonKeyAttributes().contains(attribute);
  }

  /** The index key and table key attributes of an entry: its LastEvaluatedKey. */
  public static Map<String, AttributeValue> lastEvaluatedKey(
      TableDefinition table, IndexDefinition index, Map<String, AttributeValue> entry) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (KeyAttribute k : index.keyAttributes()) {
      out.put(k.name(), entry.get(k.name()));
    }
    for (KeyAttribute k : table.keyAttributes()) {
      out.put(k.name(), entry.get(k.name()));
    }
    return out;
  }

  /**
   * The entry key named by an ExclusiveStartKey on an index, which must hold exactly the index
   * key and table key attributes with their types. DynamoDB words each fault its own way (as
   * recorded for Query and Scan of a GSI and an LSI): a key of the wrong number of attributes or
   * without one of the index's key attributes is "The provided starting key is invalid", an index
   * key attribute of the wrong type "The provided key element does not match the schema", and a
   * table key attribute the index does not have, missing or of the wrong type, "The provided
   * starting key is invalid: The provided key element does not match the schema".
   */
  public static StorageKey startKey(
      TableDefinition table, IndexDefinition index, Map<String, AttributeValue> key) {
    List<KeyAttribute> tableOnly = new ArrayList<>();
    for (KeyAttribute k : table.keyAttributes()) {
      if (!index.isKey(k.name())) {
        tableOnly.add(k);
      }
    }
    if (key.size() != index.keyAttributes().size() + tableOnly.size()) {
      throw DynamoDbException.validation("The provided starting key is invalid");
    }
    for (KeyAttribute k : index.keyAttributes()) {
      AttributeValue v = key.get(k.name());
      if (v == null) {
        throw DynamoDbException.validation("The provided starting key is invalid");
      }
      if (!v.type().equals(k.type())) {
        throw DynamoDbException.validation("The provided key element does not match the schema");
      }
      if (isEmpty(v)) {
        throw emptyStartKey("", k, v);
      }
    }
    for (KeyAttribute k : tableOnly) {
      AttributeValue v = key.get(k.name());
      if (v == null || !v.type().equals(k.type())) {
        throw DynamoDbException.validation(
            "The provided starting key is invalid: The provided key element does not match the"
                + " schema");
      }
      if (isEmpty(v)) {
        throw emptyStartKey("The provided starting key is invalid: ", k, v);
      }
    }
    StorageKey start = entryKey(table, index, key);
    if (start == null) {
      throw DynamoDbException.validation("The provided starting key is invalid");
    }
    return start;
  }

  private static DynamoDbException emptyStartKey(
      String prefix, KeyAttribute k, AttributeValue v) {
    return DynamoDbException.validation(prefix + "One or more parameter values were invalid: The"
        + " AttributeValue for a key attribute cannot contain an empty "
        + (v instanceof AttributeValue.B ? "binary" : "string") + " value. Key: " + k.name());
  }

  // ---- query bounds on index sort bytes ------------------------------------------------------

  /**
   * The lower bound of the entries whose sort key attributes start with the escaped values
   * {@code prefix} (equality on the leading sort key attributes; empty for none) and whose next
   * sort key attribute satisfies {@code operator} (null for none), over entry sort bytes (sort
   * values escaped, then table key bytes). Because every escaped value is self-delimiting, the
   * entries with a given prefix are one contiguous range, and a condition on the next attribute
   * is a range within it: this is what makes multi-attribute sort keys ordered left to right.
   */
  public static Bound lower(byte[] prefix, String operator, List<AttributeValue> values) {
    if (operator == null) {
      return prefix.length == 0 ? null : Bound.inclusive(prefix);
    }
    byte[] first = concat(prefix, escaped(values.get(0)));
    return switch (operator) {
      case "EQ", "GE", "BETWEEN" -> Bound.inclusive(first);
      case "GT" -> {
        Bound past = Bound.pastPrefix(first);
        yield past == null ? Bound.exclusive(first) : Bound.inclusive(past.sort());
      }
      case "BEGINS_WITH" -> Bound.inclusive(concat(prefix, unterminated(values.get(0))));
      default -> prefix.length == 0 ? null : Bound.inclusive(prefix); // LT, LE
    };
  }

  /** The upper bound matching {@link #lower}. */
  public static Bound upper(byte[] prefix, String operator, List<AttributeValue> values) {
    if (operator == null) {
      return prefix.length == 0 ? null : Bound.pastPrefix(prefix);
    }
    byte[] first = concat(prefix, escaped(values.get(0)));
    return switch (operator) {
      case "EQ", "LE" -> Bound.pastPrefix(first);
      case "LT" -> Bound.exclusive(first);
      case "BETWEEN" -> Bound.pastPrefix(concat(prefix, escaped(values.get(1))));
      case "BEGINS_WITH" -> Bound.pastPrefix(concat(prefix, unterminated(values.get(0))));
      default -> prefix.length == 0 ? null : Bound.pastPrefix(prefix); // GT, GE
    };
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** A key value in its escaped, self-delimiting form. */
  static byte[] escaped(AttributeValue value) {
    byte[] p = KeyCodec.partition(value);
    return Arrays.copyOfRange(p, KeyCodec.HASH_LENGTH, p.length);
  }

  /** The escaped bytes of a string or binary without its terminator: a prefix of longer values. */
  private static byte[] unterminated(AttributeValue value) {
    byte[] e = escaped(value);
    return Arrays.copyOf(e, e.length - 2);
  }

  /**
   * The item's values of an index's partition or sort key attributes, or null when the item is
   * not in the index: an attribute missing, of another type, empty or beyond its size limit.
   * Writes refuse all but a missing one ({@link #checkItem}); an index added to a table leaves
   * out the items it finds so, as DynamoDB does.
   */
  private static List<AttributeValue> values(
      List<KeyAttribute> keys, Map<String, AttributeValue> item, boolean hash) {
    List<AttributeValue> out = new ArrayList<>(keys.size());
    for (KeyAttribute k : keys) {
      AttributeValue v = item.get(k.name());
      if (v == null || !v.type().equals(k.type()) || isEmpty(v) || oversize(v, hash)) {
        return null;
      }
      out.add(v);
    }
    return out;
  }

  /**
   * DynamoDB's error for a key value over its limit ({@link #oversize}), for a table's key and an
   * index's alike.
   */
  public static DynamoDbException oversized(boolean hash) {
    return DynamoDbException.validation(hash
        ? "One or more parameter values were invalid: Size of hashkey has exceeded the maximum"
            + " size limit of" + MAX_PARTITION_KEY_BYTES + " bytes"
        : "One or more parameter values were invalid: Aggregated size of all range keys has"
            + " exceeded the size limit of " + MAX_SORT_KEY_BYTES + " bytes");
  }

  /** Whether a string or binary key value is longer than DynamoDB allows (a number never is). */
  public static boolean oversize(AttributeValue value, boolean hash) {
    int limit = hash ? MAX_PARTITION_KEY_BYTES : MAX_SORT_KEY_BYTES;
    return (value instanceof AttributeValue.S || value instanceof AttributeValue.B)
        && ItemSize.of(value) > limit;
  }

  private static boolean isEmpty(AttributeValue value) {
    return (value instanceof AttributeValue.S s && s.value().isEmpty())
        || (value instanceof AttributeValue.B b && b.value().length() == 0);
  }
}
