package io.stator.partiql;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * A PartiQL write translated into the members of the item operation it stands for: the item
 * (INSERT) or the key (UPDATE, DELETE), the update expression, the condition and their names
 * and values. ExecuteStatement runs it as a PutItem, UpdateItem or DeleteItem; ExecuteTransaction
 * as the Put, Update or Delete of a TransactWriteItems, and an EXISTS as its ConditionCheck.
 */
record Write(
    Statement statement,
    Map<String, AttributeValue> item,
    Map<String, AttributeValue> key,
    String updateExpression,
    String condition,
    Map<String, String> names,
    Map<String, AttributeValue> values,
    String returnValues) {

  static Write of(Statement statement, List<String> keyNames, ExpressionText text) {
    if (statement instanceof Statement.Insert insert) {
      AttributeValue item = text.bind(insert.item());
      if (!(item instanceof AttributeValue.M map)) {
        throw DynamoDbException.validation("An INSERT's VALUE must be a map of the item");
      }
      // An INSERT adds an item; of a key that has one, DynamoDB answers DuplicateItemException.
      String condition = "attribute_not_exists(" + text.name(keyNames.get(0)) + ")";
      return new Write(statement, map.value(), null, null, condition, text.names(), null, null);
    }
    if (statement instanceof Statement.Update update) {
      KeyedWhere where = KeyedWhere.of(update.where(), keyNames, text);
      String updateExpression = UpdateText.of(update.actions(), text);
      // DynamoDB's UPDATE changes an item that exists; of one that does not, the condition fails.
      String condition = "attribute_exists(" + text.name(keyNames.get(0)) + ")";
      if (where.condition() != null) {
        condition += " AND " + text.condition(where.condition());
      }
      return new Write(
          statement, null, where.key(), updateExpression, condition, text.names(), text.values(),
          update.returnValues());
    }
    if (statement instanceof Statement.Exists exists) {
      Statement.Select select = exists.select();
      if (select.index() != null || select.where() == null) {
        throw DynamoDbException.validation(
            "EXISTS must select one item of a table by equalities on its full primary key");
      }
      KeyedWhere where =
          KeyedWhere.ofOrNull(select.where(), keyNames, text, KeyedWhere.Use.CHECK);
      if (where == null || where.condition() == null) {
        // DynamoDB's words: the check is of a condition on the item, not of its existence alone
        throw DynamoDbException.validation(
            "EXISTS() must contain a single item read with additional condition");
      }
      // The SELECT finds nothing where the item does not exist, whatever the rest of its clause
      String condition = "attribute_exists(" + text.name(keyNames.get(0)) + ") AND "
          + text.condition(where.condition());
      return new Write(
          statement, null, where.key(), null, condition, text.names(), text.values(), null);
    }
    Statement.Delete delete = (Statement.Delete) statement;
    if (delete.returnValues() != null && !delete.returnValues().equals("ALL_OLD")) {
      throw DynamoDbException.validation("A DELETE can return ALL OLD * only");
    }
    KeyedWhere where = KeyedWhere.of(delete.where(), keyNames, text);
    String condition = where.condition() == null ? null : text.condition(where.condition());
    return new Write(
        statement, null, where.key(), null, condition, text.names(), text.values(),
        delete.returnValues());
  }

  boolean isConditionCheck() {
    return statement instanceof Statement.Exists;
  }

  boolean isInsert() {
    return statement instanceof Statement.Insert;
  }

  String table() {
    return statement.table();
  }

  /** The error of an INSERT whose key has an item. */
  static DynamoDbException duplicate() {
    return new DynamoDbException(
        io.stator.api.ErrorType.DuplicateItemException, "Duplicate primary key exists in table");
  }
}
