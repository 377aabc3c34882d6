package io.stator.engine;

import io.stator.api.ConditionCheck;
import io.stator.api.Delete;
import io.stator.api.DynamoDbException;
import io.stator.api.Put;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.engine.OngoingTransactions.ItemId;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Path;
import io.stator.expression.UpdateExpression;
import io.stator.index.IndexKeys;
import io.stator.item.ItemSize;
import io.stator.schema.Constraints;
import io.stator.schema.KeyAttribute;
import io.stator.schema.TableDefinition;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TransactWriteItems' validation: the request's constraints, each action parsed into a {@link
 * TransactAction} against its table, one action per item and DynamoDB's 4 MB aggregate limit,
 * all before anything is read.
 */
final class TransactWriteValidation {
  private static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024;

  private final Tables tables;

  TransactWriteValidation(Tables tables) {
    this.tables = tables;
  }

  /**
   * Everything DynamoDB checks before it touches an item, in its order: the parameter
   * constraints of the whole request, then each action's shape, expressions, table and key.
   * Any problem here is a ValidationException (or ResourceNotFoundException) for the whole
   * request, not a cancellation reason (a key that does not match its table is one: see {@link
   * Cancellations#checkKey}).
   */
  List<TransactAction> validate(TransactWriteItemsRequest r) {
    List<TransactWriteItem> items = r.transactItems();
    Constraints c = new Constraints();
    c.notNull("transactItems", items);
    if (items != null) {
      String shown = Cancellations.shown(items, "TransactWriteItem");
      c.lengthAtLeast("transactItems", shown, items.size(), 1);
      c.lengthAtMost("transactItems", shown, items.size(), Transactions.MAX_ACTIONS);
    }
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(),
        Transactions.RETURN_CONSUMED_CAPACITY);
    c.oneOf("returnItemCollectionMetrics", r.returnItemCollectionMetrics(), "SIZE", "NONE");
    if (r.clientRequestToken() != null) {
      int length = r.clientRequestToken().length();
      c.lengthAtLeast("clientRequestToken", r.clientRequestToken(), length, 1);
      c.lengthAtMost("clientRequestToken", r.clientRequestToken(), length, 36);
    }
    if (items != null && items.size() <= Transactions.MAX_ACTIONS) {
      for (int i = 0; i < items.size(); i++) {
        memberConstraints(c, "transactItems." + (i + 1) + ".member", items.get(i));
      }
    }
    c.check();

    for (TransactWriteItem item : items) {
      int set = (item.conditionCheck() == null ? 0 : 1) + (item.put() == null ? 0 : 1)
          + (item.delete() == null ? 0 : 1) + (item.update() == null ? 0 : 1);
      if (set != 1) {
        throw DynamoDbException.validation(
            "TransactItems can only contain one of Check, Put, Update or Delete");
      }
    }

    List<TransactAction> actions = new ArrayList<>(items.size());
    Cancellations.Mismatches mismatches = new Cancellations.Mismatches();
    for (int i = 0; i < items.size(); i++) {
      try {
        actions.add(action(items.get(i)));
      } catch (Cancellations.KeyMismatch e) {
        mismatches.note(i, e);
        actions.add(null);
      }
    }
    mismatches.check(items.size());
    Set<ItemId> seen = new HashSet<>();
    long bytes = 0;
    for (int i = 0; i < items.size(); i++) {
      TransactWriteItem item = items.get(i);
      TransactAction action = actions.get(i);
      if (!seen.add(new ItemId(action.table().space(), action.key()))) {
        throw DynamoDbException.validation(
            "Transaction request cannot include multiple operations on one item");
      }
      bytes += size(item, action);
      if (bytes > MAX_TRANSACTION_BYTES) {
        // Wording not confirmed against DynamoDB; the limit is its documented 4 MB.
        throw DynamoDbException.validation(
            "Transaction request size has exceeded the maximum allowed size of 4 MB");
      }
    }
    return actions;
  }

  /**
   * What an action adds to the 4 MB aggregate ("the aggregate size of the items in the
   * transaction cannot exceed 4 MB"): a Put its item; an Update its key and the values it
   * brings (its ExpressionAttributeValues), which is what it can add to the item; a Delete or a
   * ConditionCheck its key. Counted from the request, before anything is read, so an oversized
   * transaction is refused without touching an item.
   */
  private static long size(TransactWriteItem item, TransactAction action) {
    if (action.item() != null) {
      return ItemSize.of(action.item());
    }
    long size = ItemSize.of(action.keyAttributes());
    if (item.update() != null && item.update().expressionAttributeValues() != null) {
      for (AttributeValue value : item.update().expressionAttributeValues().values()) {
        size += ItemSize.of(value);
      }
    }
    return size;
  }

  private static void memberConstraints(Constraints c, String path, TransactWriteItem item) {
    if (item.conditionCheck() != null) {
      ConditionCheck a = item.conditionCheck();
      String p = path + ".conditionCheck";
      c.notNull(p + ".key", a.key());
      tableName(c, p, a.tableName());
      c.notNull(p + ".conditionExpression", a.conditionExpression());
      returnValues(c, p, a.returnValuesOnConditionCheckFailure());
    }
    if (item.put() != null) {
      Put a = item.put();
      String p = path + ".put";
      c.notNull(p + ".item", a.item());
      tableName(c, p, a.tableName());
      returnValues(c, p, a.returnValuesOnConditionCheckFailure());
    }
    if (item.delete() != null) {
      Delete a = item.delete();
      String p = path + ".delete";
      c.notNull(p + ".key", a.key());
      tableName(c, p, a.tableName());
      returnValues(c, p, a.returnValuesOnConditionCheckFailure());
    }
    if (item.update() != null) {
      io.stator.api.Update a = item.update();
      String p = path + ".update";
      c.notNull(p + ".key", a.key());
      c.notNull(p + ".updateExpression", a.updateExpression());
      tableName(c, p, a.tableName());
      returnValues(c, p, a.returnValuesOnConditionCheckFailure());
    }
  }

  /** An action's table: required, and a table name. */
  private static void tableName(Constraints c, String action, String tableName) {
    c.notNull(action + ".tableName", tableName).name(action + ".tableName", tableName);
  }

  /** What an action returns when its check fails: ALL_OLD or NONE. */
  private static void returnValues(Constraints c, String action, String returnValues) {
    c.oneOf(action + ".returnValuesOnConditionCheckFailure", returnValues, "ALL_OLD", "NONE");
  }

  private TransactAction action(TransactWriteItem item) {
    if (item.conditionCheck() != null) {
      ConditionCheck a = item.conditionCheck();
      ExpressionContext context = context(
          a.conditionExpression(), null, a.expressionAttributeNames(),
          a.expressionAttributeValues());
      ConditionExpression condition = condition(a.conditionExpression(), context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(a.tableName());
      Cancellations.checkKey(table, a.key());
      return new TransactAction(TransactAction.Kind.CONDITION_CHECK, table,
          table.storageKey(a.key()), a.key(), condition, null, null,
          allOld(a.returnValuesOnConditionCheckFailure()));
    }
    if (item.put() != null) {
      Put a = item.put();
      ExpressionContext context = context(
          a.conditionExpression(), null, a.expressionAttributeNames(),
          a.expressionAttributeValues());
      ConditionExpression condition = condition(a.conditionExpression(), context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(a.tableName());
      ItemKeys.checkValues(table, a.item());
      String mismatch = ItemKeys.itemMismatch(table, a.item());
      if (mismatch != null) {
        throw new Cancellations.KeyMismatch(mismatch);
      }
      // An empty index key fails the request; one of the wrong type cancels this Put when it is
      // staged, with a ValidationError reason, as DynamoDB answers each.
      DynamoDbException emptyIndexKey = IndexKeys.emptyKey(table, a.item(), false);
      if (emptyIndexKey != null) {
        throw emptyIndexKey;
      }
      if (ItemSize.of(a.item()) > ItemSize.MAX_ITEM_SIZE) {
        throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
      }
      return new TransactAction(TransactAction.Kind.PUT, table, table.storageKey(a.item()),
          ItemKeys.project(table, a.item()), condition, null, a.item(),
          allOld(a.returnValuesOnConditionCheckFailure()));
    }
    if (item.delete() != null) {
      Delete a = item.delete();
      ExpressionContext context = context(
          a.conditionExpression(), null, a.expressionAttributeNames(),
          a.expressionAttributeValues());
      ConditionExpression condition = condition(a.conditionExpression(), context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(a.tableName());
      Cancellations.checkKey(table, a.key());
      return new TransactAction(TransactAction.Kind.DELETE, table, table.storageKey(a.key()),
          a.key(), condition, null, null, allOld(a.returnValuesOnConditionCheckFailure()));
    }
    io.stator.api.Update a = item.update();
    ExpressionContext context = context(
        a.conditionExpression(), a.updateExpression(), a.expressionAttributeNames(),
        a.expressionAttributeValues());
    UpdateExpression update = Expressions.parseUpdate(a.updateExpression(), context);
    ConditionExpression condition = condition(a.conditionExpression(), context);
    context.checkAllUsed();
    TableDefinition table = tables.forItems(a.tableName());
    Cancellations.checkKey(table, a.key());
    for (Path path : update.paths()) {
      for (KeyAttribute key : table.keyAttributes()) {
        if (key.name().equals(path.attribute())) {
          throw DynamoDbException.validation(
              "One or more parameter values were invalid: Cannot update attribute "
                  + key.name() + ". This attribute is part of the key");
        }
      }
    }
    return new TransactAction(TransactAction.Kind.UPDATE, table, table.storageKey(a.key()), a.key(),
        condition, update, null, allOld(a.returnValuesOnConditionCheckFailure()));
  }

  private static ExpressionContext context(
      String conditionExpression,
      String updateExpression,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    Map<String, Object> expressions =
        updateExpression == null
            ? RequestConstraints.params("ConditionExpression", conditionExpression)
            : RequestConstraints.params(
                "UpdateExpression", updateExpression, "ConditionExpression", conditionExpression);
    RequestConstraints.expressionParameters(expressions, Map.of(), names, values);
    return new ExpressionContext(names, values);
  }

  private static ConditionExpression condition(String expression, ExpressionContext context) {
    return expression == null
        ? null
        : Expressions.parseCondition(expression, context, "ConditionExpression");
  }

  private static boolean allOld(String returnValuesOnConditionCheckFailure) {
    return "ALL_OLD".equals(returnValuesOnConditionCheckFailure);
  }
}
