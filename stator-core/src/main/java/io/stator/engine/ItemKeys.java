package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.index.IndexKeys;
import io.stator.key.KeyCodec;
import io.stator.schema.KeyAttribute;
import io.stator.schema.TableDefinition;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The primary key of items: validation of keys in items (PutItem) and in key maps (GetItem,
 * DeleteItem, ExclusiveStartKey), with DynamoDB's messages, and the mapping between key values
 * and storage keys.
 */
final class ItemKeys {
  private ItemKeys() {}

  /** Checks that an item to write carries the table's key attributes, with the right types. */
  static void checkItem(TableDefinition table, Map<String, AttributeValue> item) {
    for (KeyAttribute key : table.keyAttributes()) {
      String mismatch = itemMismatch(key, item.get(key.name()));
      if (mismatch != null) {
        throw DynamoDbException.validation(mismatch);
      }
      checkValue(table, key, item.get(key.name()), "are not valid.");
    }
  }

  /**
   * Checks a key map (GetItem, DeleteItem): exactly the table's key attributes with their types.
   * DynamoDB answers every shape mismatch with one message.
   */
  static void checkKey(TableDefinition table, Map<String, AttributeValue> key) {
    if (!matchesSchema(table, key)) {
      throw DynamoDbException.validation(SCHEMA_MISMATCH);
    }
    for (KeyAttribute attribute : table.keyAttributes()) {
      checkValue(table, attribute, key.get(attribute.name()), "were invalid:");
    }
  }

  /** DynamoDB's one message for a key map that does not have exactly the table's key. */
  static final String SCHEMA_MISMATCH = "The provided key element does not match the schema";

  /**
   * Whether a key map holds exactly the table's key attributes, each of its type. A transaction
   * reports a mismatch as its action's ValidationError reason, the other paths as a
   * ValidationException.
   */
  static boolean matchesSchema(TableDefinition table, Map<String, AttributeValue> key) {
    if (key.size() != table.keyAttributes().size()) {
      return false;
    }
    for (KeyAttribute attribute : table.keyAttributes()) {
      AttributeValue value = key.get(attribute.name());
      if (value == null || !value.type().equals(attribute.type())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Why an item to write lacks the table's key (a missing attribute or one of another type), in
   * DynamoDB's words, or null.
   */
  static String itemMismatch(TableDefinition table, Map<String, AttributeValue> item) {
    for (KeyAttribute key : table.keyAttributes()) {
      String mismatch = itemMismatch(key, item.get(key.name()));
      if (mismatch != null) {
        return mismatch;
      }
    }
    return null;
  }

  private static String itemMismatch(KeyAttribute key, AttributeValue value) {
    if (value == null) {
      return "One or more parameter values were invalid: Missing the key " + key.name()
          + " in the item";
    }
    if (!value.type().equals(key.type())) {
      return "One or more parameter values were invalid: Type mismatch for key " + key.name()
          + " expected: " + key.type() + " actual: " + value.type();
    }
    return null;
  }

  /**
   * Checks the values a request gives for key attributes, whatever their type: none empty, none
   * over the key size limits. DynamoDB checks these before anything else, so inside a transaction
   * they fail the whole request where a schema mismatch only cancels it. PutItem and the
   * transaction's actions word the empty value "are not valid.", GetItem and DeleteItem "were
   * invalid:".
   */
  static void checkValues(TableDefinition table, Map<String, AttributeValue> key) {
    for (KeyAttribute attribute : table.keyAttributes()) {
      AttributeValue value = key.get(attribute.name());
      if (value != null) {
        checkValue(table, attribute, value, "are not valid.");
      }
    }
  }

  private static void checkValue(
      TableDefinition table, KeyAttribute key, AttributeValue value, String wording) {
    if (isEmpty(value)) {
      throw DynamoDbException.validation(
          "One or more parameter values " + wording + " The AttributeValue for a key attribute"
              + " cannot contain an empty " + emptyKind(value) + " value. Key: " + key.name());
    }
    checkSize(table, key, value);
  }

  /** The key attributes of the item stored under {@code key} (for LastEvaluatedKey). */
  static Map<String, AttributeValue> keyOf(TableDefinition table, StorageKey key) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    out.put(
        table.hashKey().name(),
        KeyCodec.decodePartition(key.partition(), table.hashKey().type()));
    if (table.hasRangeKey()) {
      out.put(table.rangeKey().name(), KeyCodec.decodeSort(key.sort(), table.rangeKey().type()));
    }
    return out;
  }

  /** Only the key attributes of an item. */
  static Map<String, AttributeValue> project(
      TableDefinition table, Map<String, AttributeValue> item) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (KeyAttribute k : table.keyAttributes()) {
      out.put(k.name(), item.get(k.name()));
    }
    return out;
  }

  static boolean isEmpty(AttributeValue value) {
    return (value instanceof AttributeValue.S s && s.value().isEmpty())
        || (value instanceof AttributeValue.B b && b.value().length() == 0);
  }

  private static String emptyKind(AttributeValue value) {
    return value instanceof AttributeValue.B ? "binary" : "string";
  }

  private static void checkSize(TableDefinition table, KeyAttribute key, AttributeValue value) {
    boolean hash = key == table.hashKey() || key.equals(table.hashKey());
    if (IndexKeys.oversize(value, hash)) {
      throw IndexKeys.oversized(hash);
    }
  }
}
