package io.stator.engine;

import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteItemResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ExpectedAttributeValue;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.api.PutItemRequest;
import io.stator.api.PutItemResponse;
import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.CapacityModel;
import io.stator.capacity.Consumption;
import io.stator.capacity.ReadConsistency;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Path;
import io.stator.index.IndexKeys;
import io.stator.index.IndexWrite;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * PutItem, GetItem and DeleteItem. Writes are "read, check, commit with the read version": the
 * commit fails if the item changed in between, and the write starts over, so a
 * ConditionExpression is always evaluated against the version the write replaces.
 *
 * <p>This is what makes the operations on one item linearizable: a write that commits takes
 * effect at its commit, where the item is still exactly what it read; one that commits nothing
 * (failed condition, delete of a missing item) takes effect at its last read. The argument in
 * full is in {@link Engine}'s "Linearizability of one item"; {@code LinearizabilityTest} checks
 * it on concurrent histories.
 */
final class Items {
  static final String[] RETURN_VALUES = {
    "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"
  };

  private final Storage storage;
  private final Tables tables;
  private final CapacityModel capacity;
  private final ReadModifyWrite pipeline;

  Items(
      Storage storage, Tables tables, CapacityModel capacity, ReadModifyWrite pipeline) {
    this.storage = storage;
    this.tables = tables;
    this.capacity = capacity;
    this.pipeline = pipeline;
  }

  PutItemResponse put(PutItemRequest r) {
    Constraints c = RequestConstraints.tableName(r.tableName());
    c.notNull("item", r.item());
    ConditionExpression condition = checkedCondition(c, r.returnValues(),
        r.returnValuesOnConditionCheckFailure(), r.conditionalOperator(), r.expected(),
        r.returnConsumedCapacity(), r.returnItemCollectionMetrics(), r.conditionExpression(),
        r.expressionAttributeNames(), r.expressionAttributeValues());
    TableDefinition table = tables.forItems(r.tableName());
    Map<String, AttributeValue> item = r.item();
    checkPut(table, item);
    StorageKey key = table.storageKey(item);
    Written written =
        write(table, key, condition, r.returnValuesOnConditionCheckFailure(), item);
    return new PutItemResponse(
        returnOld(r.returnValues(), written.old()),
        written.consumedCapacity(table, r.returnConsumedCapacity()),
        written.itemCollectionMetrics(r.returnItemCollectionMetrics()));
  }

  GetItemResponse get(GetItemRequest r) {
    Constraints c = RequestConstraints.tableName(r.tableName());
    c.notNull("key", r.key());
    RequestConstraints.attributesToGetLength(c, r.attributesToGet());
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(),
        Consumption.RETURN_CONSUMED_CAPACITY);
    c.check();
    List<Path> projection = null;
    // Without a projection or names there is nothing to check or parse: skip the maps and the
    // context that the checks below would build for nothing (most GetItems are like that).
    if (r.projectionExpression() != null || r.attributesToGet() != null
        || r.expressionAttributeNames() != null) {
      RequestConstraints.expressionParameters(
          RequestConstraints.params("ProjectionExpression", r.projectionExpression()),
          RequestConstraints.params("AttributesToGet", r.attributesToGet()),
          r.expressionAttributeNames(),
          null);
      ExpressionContext context = new ExpressionContext(r.expressionAttributeNames(), null);
      projection = RequestConstraints.projection(r.projectionExpression(), r.attributesToGet(), context);
      context.checkAllUsed();
    }
    TableDefinition table = tables.forItems(r.tableName());
    ItemKeys.checkKey(table, r.key());
    StorageKey key = table.storageKey(r.key());
    Optional<StoredRecord> record;
    try {
      record = storage.get(table.space(), key);
    } catch (StorageException e) {
      throw tables.failure(table, e);
    }
    byte[] stored = record.isPresent() ? record.get().value() : null;
    // The whole item is read whatever the projection, so its whole size is charged; the size
    // comes from the stored bytes, without measuring the decoded item again.
    double units =
        CapacityCalculator.getItem(
            stored == null ? 0 : ItemCodec.size(stored), ReadConsistency.of(r.consistentRead()));
    capacity.read(table, key.partition(), units);
    Map<String, AttributeValue> item = stored == null ? null : ItemCodec.decode(stored);
    String returnConsumedCapacity = r.returnConsumedCapacity();
    return new GetItemResponse(
        item == null ? null : RequestConstraints.project(item, projection),
        Consumption.requested(returnConsumedCapacity)
            ? new Consumption(table.name()).tableRead(units)
                .consumedCapacity(returnConsumedCapacity)
            : null);
  }

  /**
   * PutItem's and DeleteItem's shared members checked, in the order of their input shapes (the
   * order DynamoDB lists its validation errors in), then their condition parsed.
   */
  private ConditionExpression checkedCondition(
      Constraints c,
      String returnValues,
      String returnValuesOnConditionCheckFailure,
      String conditionalOperator,
      Map<String, ExpectedAttributeValue> expected,
      String returnConsumedCapacity,
      String returnItemCollectionMetrics,
      String conditionExpression,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    c.oneOf("returnValues", returnValues, RETURN_VALUES);
    c.oneOf("returnValuesOnConditionCheckFailure", returnValuesOnConditionCheckFailure,
        "ALL_OLD", "NONE");
    c.oneOf("conditionalOperator", conditionalOperator, LegacyConditions.CONDITIONAL_OPERATORS);
    LegacyConditions.expectedConstraints(c, expected);
    c.oneOf("returnConsumedCapacity", returnConsumedCapacity,
        Consumption.RETURN_CONSUMED_CAPACITY);
    c.oneOf("returnItemCollectionMetrics", returnItemCollectionMetrics, "SIZE", "NONE");
    c.check();
    checkReturnValues(returnValues);
    return condition(conditionExpression, expected, conditionalOperator, names, values);
  }

  DeleteItemResponse delete(DeleteItemRequest r) {
    Constraints c = RequestConstraints.tableName(r.tableName());
    c.notNull("key", r.key());
    ConditionExpression condition = checkedCondition(c, r.returnValues(),
        r.returnValuesOnConditionCheckFailure(), r.conditionalOperator(), r.expected(),
        r.returnConsumedCapacity(), r.returnItemCollectionMetrics(), r.conditionExpression(),
        r.expressionAttributeNames(), r.expressionAttributeValues());
    TableDefinition table = tables.forItems(r.tableName());
    ItemKeys.checkKey(table, r.key());
    StorageKey key = table.storageKey(r.key());
    Written written =
        write(table, key, condition, r.returnValuesOnConditionCheckFailure(), null);
    return new DeleteItemResponse(
        returnOld(r.returnValues(), written.old()),
        written.consumedCapacity(table, r.returnConsumedCapacity()),
        written.itemCollectionMetrics(r.returnItemCollectionMetrics()));
  }

  /**
   * Replaces ({@code item} non-null) or deletes the item under {@code key}, if {@code condition}
   * holds for the current item; returns the replaced item (or null) and the units consumed.
   * Through {@link ReadModifyWrite}, which starts over when the item (or the table's definition)
   * changes between the read and the commit.
   */
  /** What PutItem requires of an item: its keys, its size, and its index keys' types. */
  private static void checkPut(TableDefinition table, Map<String, AttributeValue> item) {
    ItemKeys.checkItem(table, item);
    if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
      throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
    }
    IndexKeys.checkItem(table, item);
  }

  /**
   * Puts an imported item into the table an import makes: refused as PutItem refuses an item
   * (its keys, size, index keys), else written as a restore writes one, uncharged.
   */
  void putImported(String tableName, Map<String, AttributeValue> item) {
    TableDefinition table = tables.forFilling(tableName);
    checkPut(table, item);
    write(table, table.storageKey(item), null, "NONE", item,
        ReadModifyWrite.Writer.RESTORE);
  }

  /**
   * Puts a backed-up item into the table being restored from its backup: no condition, no
   * charge, its indexes written as for any put (see {@code io.stator.backup}).
   */
  void restore(String tableName, Map<String, AttributeValue> item) {
    TableDefinition table = tables.forFilling(tableName);
    write(table, table.storageKey(item), null, "NONE", item,
        ReadModifyWrite.Writer.RESTORE);
  }

  private Written write(
      TableDefinition validatedAgainst, StorageKey key, ConditionExpression condition, String onFailure,
      Map<String, AttributeValue> item) {
    return write(validatedAgainst, key, condition, onFailure, item, ReadModifyWrite.Writer.CLIENT);
  }

  /**
   * DeleteItem's path for a deletion the service makes itself (the Time to Live sweeper): the
   * item under {@code key} is deleted if {@code condition} holds for its current version, and
   * its stream record names the service. Returns whether an item was deleted; false when the
   * condition does not hold (the item changed, or is gone). Such deletions consume no capacity,
   * as TTL deletes on DynamoDB, and maintain the table's secondary indexes like any other delete.
   */
  boolean deleteExpired(TableDefinition table, StorageKey key, ConditionExpression condition) {
    try {
      return write(table, key, condition, "NONE", null, ReadModifyWrite.Writer.TIME_TO_LIVE)
          .old() != null;
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ConditionalCheckFailedException) {
        return false;
      }
      throw e;
    }
  }

  private Written write(
      TableDefinition validatedAgainst, StorageKey key, ConditionExpression condition, String onFailure,
      Map<String, AttributeValue> item, ReadModifyWrite.Writer writer) {
    byte[] encoded = item == null ? null : ItemCodec.encode(item);
    long newSize = item == null ? 0 : ItemSize.of(item);
    try {
      return pipeline.write(validatedAgainst, key, writer, (table, old, oldSize) -> {
        if (condition != null && !Expressions.evaluate(condition, old == null ? Map.of() : old)) {
          // A failed condition still consumes the existing item's size, at least 1.
          return ReadModifyWrite.Change.refused(CapacityCalculator.failedCondition(oldSize),
              DynamoDbException.conditionalCheckFailed("ALL_OLD".equals(onFailure) ? old : null));
        }
        double units = CapacityCalculator.write(oldSize, newSize, false);
        if (item == null && old == null) {
          // deleting an absent item changes nothing
          return ReadModifyWrite.Change.unchanged(units, (charged, w) -> new Written(null, charged, null));
        }
        return ReadModifyWrite.Change.write(table, old, item, encoded, units, newSize - oldSize,
            (charged, indexWrite) -> new Written(old, charged, indexWrite));
      });
    } catch (StorageException e) {
      throw tables.failure(validatedAgainst, e);
    }
  }

  /**
   * What a write replaced (or null), the write units it consumed on the table, and its index
   * side (null when it wrote nothing).
   */
  private record Written(Map<String, AttributeValue> old, double units, IndexWrite indexWrite) {
    /** The answer to ReturnConsumedCapacity {@code mode}; built only when asked for. */
    io.stator.api.ConsumedCapacity consumedCapacity(TableDefinition table, String mode) {
      if (!Consumption.requested(mode)) {
        return null;
      }
      Consumption c = new Consumption(table.name()).tableWrite(units);
      return (indexWrite == null ? c : indexWrite.addTo(c, false)).consumedCapacity(mode);
    }

    io.stator.api.ItemCollectionMetrics itemCollectionMetrics(String mode) {
      return indexWrite == null ? null : indexWrite.itemCollectionMetrics(mode);
    }
  }

  /**
   * The condition of a write: its ConditionExpression, or its legacy Expected, or null; after
   * DynamoDB's checks of how they mix with each other and with the expression attributes. A
   * write that gives none of them (most do) skips the checks, which would find nothing.
   */
  private static ConditionExpression condition(
      String expression, Map<String, ExpectedAttributeValue> expected, String conditionalOperator,
      Map<String, String> names, Map<String, AttributeValue> values) {
    if (expression == null && expected == null && conditionalOperator == null && names == null
        && values == null) {
      return null;
    }
    RequestConstraints.expressionParameters(
        RequestConstraints.params("ConditionExpression", expression),
        RequestConstraints.params("Expected", expected, "ConditionalOperator", conditionalOperator),
        names,
        values);
    ExpressionContext context = new ExpressionContext(names, values);
    ConditionExpression condition =
        expression == null
            ? LegacyConditions.expected(expected, conditionalOperator)
            : Expressions.parseCondition(expression, context, "ConditionExpression");
    context.checkAllUsed();
    return condition;
  }

  /** PutItem and DeleteItem accept only NONE and ALL_OLD, as DynamoDB does. */
  private static void checkReturnValues(String returnValues) {
    if (returnValues != null && !returnValues.equals("NONE") && !returnValues.equals("ALL_OLD")) {
      throw DynamoDbException.validation("Return values set to invalid value");
    }
  }

  private static Map<String, AttributeValue> returnOld(
      String returnValues, Map<String, AttributeValue> old) {
    return "ALL_OLD".equals(returnValues) ? old : null;
  }
}
