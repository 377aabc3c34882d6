package io.stator.engine;

import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteItemResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ExpectedAttributeValue;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.api.PutItemRequest;
import io.stator.api.PutItemResponse;
import io.stator.expression.Condition;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Path;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
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

  Items(Storage storage, Tables tables) {
    this.storage = storage;
    this.tables = tables;
  }

  PutItemResponse put(PutItemRequest r) {
    Constraints c = Requests.tableName(r.tableName());
    c.notNull("item", r.item());
    c.oneOf("returnValues", r.returnValues(), RETURN_VALUES);
    c.oneOf("returnValuesOnConditionCheckFailure", r.returnValuesOnConditionCheckFailure(),
        "ALL_OLD", "NONE");
    c.oneOf("conditionalOperator", r.conditionalOperator(), LegacyConditions.CONDITIONAL_OPERATORS);
    LegacyConditions.expectedConstraints(c, r.expected());
    c.check();
    checkReturnValues(r.returnValues());
    Requests.expressionParameters(
        Requests.params("ConditionExpression", r.conditionExpression()),
        Requests.params("Expected", r.expected(), "ConditionalOperator", r.conditionalOperator()),
        r.expressionAttributeNames(),
        r.expressionAttributeValues());
    Condition condition =
        condition(r.conditionExpression(), r.expected(), r.conditionalOperator(),
            r.expressionAttributeNames(), r.expressionAttributeValues());
    TableDefinition table = tables.forItems(r.tableName());
    Map<String, AttributeValue> item = r.item();
    ItemKeys.checkItem(table, item);
    if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
      throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
    }
    StorageKey key = ItemKeys.storageKey(table, item);
    byte[] encoded = ItemCodec.encode(item);
    Map<String, AttributeValue> old =
        write(table, key, condition, r.returnValuesOnConditionCheckFailure(), encoded);
    return new PutItemResponse(returnOld(r.returnValues(), old), null, null);
  }

  GetItemResponse get(GetItemRequest r) {
    Constraints c = Requests.tableName(r.tableName());
    c.notNull("key", r.key());
    Requests.attributesToGetLength(c, r.attributesToGet());
    c.check();
    Requests.expressionParameters(
        Requests.params("ProjectionExpression", r.projectionExpression()),
        Requests.params("AttributesToGet", r.attributesToGet()),
        r.expressionAttributeNames(),
        null);
    ExpressionContext context = new ExpressionContext(r.expressionAttributeNames(), null);
    List<Path> projection =
        Requests.projection(r.projectionExpression(), r.attributesToGet(), context);
    context.checkAllUsed();
    TableDefinition table = tables.forItems(r.tableName());
    ItemKeys.checkKey(table, r.key());
    Optional<StoredRecord> record;
    try {
      record = storage.get(table.space(), ItemKeys.storageKey(table, r.key()));
    } catch (StorageException e) {
      throw tables.failure(table, e);
    }
    Map<String, AttributeValue> item =
        record.map(rec -> Requests.project(ItemCodec.decode(rec.value()), projection))
            .orElse(null);
    return new GetItemResponse(item, null);
  }

  DeleteItemResponse delete(DeleteItemRequest r) {
    Constraints c = Requests.tableName(r.tableName());
    c.notNull("key", r.key());
    c.oneOf("returnValues", r.returnValues(), RETURN_VALUES);
    c.oneOf("returnValuesOnConditionCheckFailure", r.returnValuesOnConditionCheckFailure(),
        "ALL_OLD", "NONE");
    c.oneOf("conditionalOperator", r.conditionalOperator(), LegacyConditions.CONDITIONAL_OPERATORS);
    LegacyConditions.expectedConstraints(c, r.expected());
    c.check();
    checkReturnValues(r.returnValues());
    Requests.expressionParameters(
        Requests.params("ConditionExpression", r.conditionExpression()),
        Requests.params("Expected", r.expected(), "ConditionalOperator", r.conditionalOperator()),
        r.expressionAttributeNames(),
        r.expressionAttributeValues());
    Condition condition =
        condition(r.conditionExpression(), r.expected(), r.conditionalOperator(),
            r.expressionAttributeNames(), r.expressionAttributeValues());
    TableDefinition table = tables.forItems(r.tableName());
    ItemKeys.checkKey(table, r.key());
    StorageKey key = ItemKeys.storageKey(table, r.key());
    Map<String, AttributeValue> old =
        write(table, key, condition, r.returnValuesOnConditionCheckFailure(), null);
    return new DeleteItemResponse(returnOld(r.returnValues(), old), null, null);
  }

  /**
   * Replaces ({@code encoded} non-null) or deletes the item under {@code key}, if {@code
   * condition} holds for the current item; returns the replaced item or null. Retries when the
   * item changes between the read and the commit.
   */
  private Map<String, AttributeValue> write(
      TableDefinition table, StorageKey key, Condition condition, String onFailure,
      byte[] encoded) {
    try {
      return writeOnce(table, key, condition, onFailure, encoded);
    } catch (StorageException e) {
      throw tables.failure(table, e);
    }
  }

  private Map<String, AttributeValue> writeOnce(
      TableDefinition table, StorageKey key, Condition condition, String onFailure,
      byte[] encoded) {
    while (true) {
      Optional<StoredRecord> current = storage.get(table.space(), key);
      Map<String, AttributeValue> old =
          current.map(rec -> ItemCodec.decode(rec.value())).orElse(null);
      if (condition != null && !Expressions.evaluate(condition, old == null ? Map.of() : old)) {
        throw DynamoDbException.conditionalCheckFailed("ALL_OLD".equals(onFailure) ? old : null);
      }
      long version = current.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT);
      if (encoded == null && old == null) {
        return null; // deleting an absent item changes nothing
      }
      Commit commit = new Commit().expect(table.space(), key, version);
      if (encoded == null) {
        commit.delete(table.space(), key);
      } else {
        commit.put(table.space(), key, encoded);
      }
      try {
        storage.commit(commit);
        return old;
      } catch (CommitConflictException e) {
        // a concurrent write got in between: read again, check again
      }
    }
  }

  /** The condition of a write: its ConditionExpression, or its legacy Expected, or null. */
  private static Condition condition(
      String expression, Map<String, ExpectedAttributeValue> expected, String conditionalOperator,
      Map<String, String> names, Map<String, AttributeValue> values) {
    ExpressionContext context = new ExpressionContext(names, values);
    Condition condition =
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
