package io.stator.engine;

import io.stator.api.AttributeValueUpdate;
import io.stator.api.DynamoDbException;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateItemResponse;
import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.Consumption;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Operand;
import io.stator.expression.Path;
import io.stator.expression.SetValue;
import io.stator.expression.UpdateExpression;
import io.stator.index.IndexKeys;
import io.stator.index.IndexWrite;
import io.stator.item.ItemCodec;
import io.stator.item.ItemNesting;
import io.stator.item.ItemSize;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * UpdateItem: an UpdateExpression (or legacy AttributeUpdates, translated into the same {@link
 * UpdateExpression} tree) applied to the current item, guarded by a ConditionExpression (or legacy
 * Expected).
 *
 * <p>Like the other writes it reads the item and its version, checks the condition, computes the
 * new item and commits it expecting the version it read; when another writer got in between, the
 * commit is refused and the whole computation starts over from a fresh read. So {@code SET n = n
 * + :one} from many clients never loses an increment, with no lock held between calls.
 *
 * <p>A missing item is updated as the item made of its key alone (so the update creates it),
 * except that an update made only of REMOVE and DELETE actions creates nothing: there is nothing
 * to remove from a missing item, as DynamoDB documents for the legacy DELETE action. An UpdateItem
 * with no update at all creates the key-only item, as DynamoDB does.
 */
final class ItemUpdates {
  private static final String[] ACTIONS = {"ADD", "PUT", "DELETE"};

  private final Tables tables;
  private final ReadModifyWrite pipeline;

  ItemUpdates(Tables tables, ReadModifyWrite pipeline) {
    this.tables = tables;
    this.pipeline = pipeline;
  }

  UpdateItemResponse update(UpdateItemRequest r) {
    Constraints c = RequestConstraints.tableName(r.tableName());
    c.notNull("key", r.key());
    c.oneOf("returnValues", r.returnValues(), Items.RETURN_VALUES);
    c.oneOf("returnValuesOnConditionCheckFailure", r.returnValuesOnConditionCheckFailure(),
        "ALL_OLD", "NONE");
    c.oneOf("conditionalOperator", r.conditionalOperator(), LegacyConditions.CONDITIONAL_OPERATORS);
    LegacyConditions.expectedConstraints(c, r.expected());
    if (r.attributeUpdates() != null) {
      r.attributeUpdates().forEach((name, u) -> {
        if (u != null) {
          c.oneOf("attributeUpdates." + name + ".member.action", u.action(), ACTIONS);
        }
      });
    }
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(),
        Consumption.RETURN_CONSUMED_CAPACITY);
    c.oneOf("returnItemCollectionMetrics", r.returnItemCollectionMetrics(), "SIZE", "NONE");
    c.check();
    RequestConstraints.expressionParameters(
        RequestConstraints.params(
            "UpdateExpression", r.updateExpression(),
            "ConditionExpression", r.conditionExpression()),
        RequestConstraints.params(
            "AttributeUpdates", r.attributeUpdates(),
            "Expected", r.expected(),
            "ConditionalOperator", r.conditionalOperator()),
        r.expressionAttributeNames(),
        r.expressionAttributeValues());
    checkAttributeUpdates(r.attributeUpdates());
    ConditionExpression expected = LegacyConditions.expected(r.expected(), r.conditionalOperator());

    // One context for both expressions: a placeholder used by either one counts as used.
    ExpressionContext context =
        new ExpressionContext(r.expressionAttributeNames(), r.expressionAttributeValues());
    UpdateExpression update =
        r.updateExpression() != null
            ? Expressions.parseUpdate(r.updateExpression(), context)
            : legacyUpdate(r.attributeUpdates());
    ConditionExpression condition =
        r.conditionExpression() != null
            ? Expressions.parseCondition(r.conditionExpression(), context, "ConditionExpression")
            : expected;
    context.checkAllUsed();

    TableDefinition table = tables.forItems(r.tableName());
    ItemKeys.checkKey(table, r.key());
    for (Path path : update.paths()) {
      if (table.isKey(path.attribute())) {
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: Cannot update attribute "
                + path.attribute() + ". This attribute is part of the key");
      }
    }
    try {
      return apply(r, table, update, condition);
    } catch (StorageException e) {
      throw tables.failure(table, e);
    }
  }

  /**
   * Read, check, compute, commit, through {@link ReadModifyWrite}: again from the read when a
   * concurrent write got in between.
   */
  private UpdateItemResponse apply(
      UpdateItemRequest r, TableDefinition validatedAgainst, UpdateExpression update,
      ConditionExpression condition) {
    boolean legacy = r.attributeUpdates() != null;
    StorageKey key = validatedAgainst.storageKey(r.key());
    // An update of an item of a running transaction is rejected, as on DynamoDB (Writer.CLIENT).
    return pipeline.write(validatedAgainst, key, ReadModifyWrite.Writer.CLIENT,
        (table, old, oldSize) -> {
          if (condition != null
              && !Expressions.evaluate(condition, old == null ? Map.of() : old)) {
            // A failed condition still consumes the existing item's size, at least 1 WCU.
            return ReadModifyWrite.Change.refused(CapacityCalculator.failedCondition(oldSize),
                DynamoDbException.conditionalCheckFailed(
                    "ALL_OLD".equals(r.returnValuesOnConditionCheckFailure()) ? old : null));
          }
          if (old == null && !createsItem(update)) {
            return ReadModifyWrite.Change.unchanged( // nothing to remove from no item
                CapacityCalculator.write(0, 0, false),
                (units, none) -> new UpdateItemResponse(null, consumed(table, r, units), null));
          }
          Map<String, AttributeValue> base = old == null ? keyItem(table, r.key()) : old;
          if (legacy) {
            checkLegacyTypes(update, base);
          }
          Map<String, AttributeValue> updated = Expressions.applyUpdate(update, base);
          long newSize = ItemSize.of(updated);
          if (newSize > ItemSize.MAX_ITEM_SIZE) {
            throw DynamoDbException.validation(
                "Item size to update has exceeded the maximum allowed size");
          }
          ItemNesting.check(updated);
          // An index key of the wrong type is a ValidationException, which consumes nothing:
          // check before charging (Indexes.stage checks again, for the other write paths).
          IndexKeys.checkUpdatedItem(table, updated);
          // UpdateItem pays for the larger of the item before and after.
          return ReadModifyWrite.Change.write(table, old, updated, ItemCodec.encode(updated),
              CapacityCalculator.write(oldSize, newSize, false), newSize - oldSize,
              (units, indexWrite) ->
                  response(r, table, update, old, updated, units, indexWrite));
        });
  }

  /** The answer to an update that wrote {@code updated} over {@code old}. */
  private static UpdateItemResponse response(
      UpdateItemRequest r, TableDefinition table, UpdateExpression update,
      Map<String, AttributeValue> old, Map<String, AttributeValue> updated, double units,
      IndexWrite written) {
    return new UpdateItemResponse(
        returned(r.returnValues(), update, old, updated),
        written.addTo(new Consumption(table.name()).tableWrite(units), false)
            .consumedCapacity(r.returnConsumedCapacity()),
        written.itemCollectionMetrics(r.returnItemCollectionMetrics()));
  }

  private static io.stator.api.ConsumedCapacity consumed(
      TableDefinition table, UpdateItemRequest r, double units) {
    return new Consumption(table.name()).tableWrite(units)
        .consumedCapacity(r.returnConsumedCapacity());
  }

  /**
   * The Attributes of the response: ALL_OLD and ALL_NEW the whole item, UPDATED_OLD and
   * UPDATED_NEW the item projected onto the paths the update wrote (before, after). DynamoDB
   * omits Attributes when there is nothing to return.
   */
  private static Map<String, AttributeValue> returned(
      String returnValues, UpdateExpression update, Map<String, AttributeValue> old,
      Map<String, AttributeValue> updated) {
    Map<String, AttributeValue> out =
        switch (returnValues == null ? "NONE" : returnValues) {
          case "ALL_OLD" -> old;
          case "ALL_NEW" -> updated;
          case "UPDATED_OLD" -> old == null ? null : Expressions.updatedAttributes(update, old);
          case "UPDATED_NEW" -> Expressions.updatedAttributes(update, updated);
          default -> null;
        };
    return out == null || out.isEmpty() ? null : out;
  }

  /** False when every action is a REMOVE or DELETE: such an update creates no item. */
  static boolean createsItem(UpdateExpression update) {
    if (update.actions().isEmpty()) {
      return true;
    }
    for (UpdateExpression.Action action : update.actions()) {
      if (action instanceof UpdateExpression.Set || action instanceof UpdateExpression.Add) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, AttributeValue> keyItem(
      TableDefinition table, Map<String, AttributeValue> key) {
    return ItemKeys.project(table, key);
  }

  // ---- legacy AttributeUpdates -------------------------------------------------------------

  /** DynamoDB's checks of AttributeUpdates that need no item, in request order. */
  private static void checkAttributeUpdates(Map<String, AttributeValueUpdate> updates) {
    if (updates == null) {
      return;
    }
    for (AttributeValueUpdate u : updates.values()) {
      String action = u == null || u.action() == null ? "PUT" : u.action();
      AttributeValue value = u == null ? null : u.value();
      if (value == null && !action.equals("DELETE")) {
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: Only DELETE action is allowed when no"
                + " attribute value is specified");
      }
      if (value != null && action.equals("DELETE") && !isSet(value)) {
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: DELETE action with value is not"
                + " supported for the type " + value.type());
      }
      if (value != null && action.equals("ADD")
          && !(isSet(value) || value instanceof AttributeValue.N
              || value instanceof AttributeValue.L)) {
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: ADD action is not supported for the type "
                + value.type());
      }
    }
  }

  /**
   * AttributeUpdates as an update tree: PUT is {@code SET a = :v}, DELETE without a value is
   * {@code REMOVE a}, DELETE with a set is {@code DELETE a :v}, ADD of a number or set is {@code
   * ADD a :v}, and ADD of a list (which only the legacy parameter allows) appends: {@code SET a =
   * list_append(if_not_exists(a, []), :v)}. A null map is an update with no actions.
   */
  private static UpdateExpression legacyUpdate(Map<String, AttributeValueUpdate> updates) {
    List<UpdateExpression.Action> actions = new ArrayList<>();
    if (updates != null) {
      updates.forEach((name, u) -> {
        Path path = Path.of(name);
        String action = u == null || u.action() == null ? "PUT" : u.action();
        AttributeValue value = u == null ? null : u.value();
        Operand.ValueOperand operand = value == null ? null : new Operand.ValueOperand(null, value);
        switch (action) {
          case "PUT" -> actions.add(new UpdateExpression.Set(path, new SetValue.Term(operand)));
          case "DELETE" ->
              actions.add(
                  value == null ? new UpdateExpression.Remove(path) : new UpdateExpression.Delete(path, operand));
          default -> {
            if (value instanceof AttributeValue.L) {
              AttributeValue none = new AttributeValue.L(List.of());
              SetValue empty = new SetValue.Term(new Operand.ValueOperand(null, none));
              actions.add(new UpdateExpression.Set(path, new SetValue.ListAppend(
                  new SetValue.IfNotExists(path, empty), new SetValue.Term(operand))));
            } else {
              actions.add(new UpdateExpression.Add(path, operand));
            }
          }
        }
      });
    }
    return new UpdateExpression(actions);
  }

  /**
   * The legacy parameter's own message for ADD or DELETE on an attribute of another type, checked
   * before the update is applied.
   */
  private static void checkLegacyTypes(UpdateExpression update, Map<String, AttributeValue> item) {
    for (UpdateExpression.Action action : update.actions()) {
      AttributeValue existing = item.get(action.path().attribute());
      AttributeValue operand = null;
      if (action instanceof UpdateExpression.Add add) {
        operand = add.value().value();
      } else if (action instanceof UpdateExpression.Delete delete) {
        operand = delete.value().value();
      } else if (action instanceof UpdateExpression.Set set && set.value() instanceof SetValue.ListAppend) {
        operand = new AttributeValue.L(List.of());
      }
      if (operand != null && existing != null && !existing.type().equals(operand.type())) {
        throw DynamoDbException.validation("Type mismatch for attribute to update");
      }
    }
  }

  private static boolean isSet(AttributeValue value) {
    return value instanceof AttributeValue.SS
        || value instanceof AttributeValue.NS
        || value instanceof AttributeValue.BS;
  }
}
