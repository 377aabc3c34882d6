package io.stator.partiql;

import io.stator.api.Database;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteItemResponse;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteStatementResponse;
import io.stator.api.KeySchemaElement;
import io.stator.api.PutItemRequest;
import io.stator.api.PutItemResponse;
import io.stator.api.TableDescription;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateItemResponse;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ExecuteStatement: parses the statement, binds its Parameters, and runs it as the item
 * operation DynamoDB runs it as.
 *
 * <ul>
 *   <li>{@code INSERT} is a PutItem on condition that no item has the key; one that has it is
 *       DuplicateItemException, not an overwrite.
 *   <li>{@code SELECT} is a GetItem, a Query or a Scan, as {@link Selects} says.
 *   <li>{@code UPDATE} is an UpdateItem on condition that the item exists (DynamoDB's UPDATE
 *       never creates one) and that the rest of its WHERE clause holds.
 *   <li>{@code DELETE} is a DeleteItem on condition of the rest of its WHERE clause.
 * </ul>
 */
public final class Statements {
  private static final String MALFORMED = "Statement wasn't well formed, can't be processed: ";

  private Statements() {}

  /** The ValidationException of a statement that does not parse. */
  static DynamoDbException malformed(String detail) {
    return DynamoDbException.validation(MALFORMED + detail);
  }

  public static ExecuteStatementResponse execute(Database database, ExecuteStatementRequest r) {
    if (r.statement() == null) {
      throw DynamoDbException.validation("Statement is required");
    }
    return run(database, r, Parser.parse(r.statement()), false);
  }

  /**
   * Runs a statement already parsed from {@code r.statement()}; with {@code pointReadOnly}, a
   * SELECT must name one item by its full key, as in a batch.
   */
  static ExecuteStatementResponse run(
      Database database, ExecuteStatementRequest r, Parser.Parsed parsed, boolean pointReadOnly) {
    List<AttributeValue> parameters = r.parameters() == null ? List.of() : r.parameters();
    if (parameters.size() != parsed.parameterCount()) {
      throw DynamoDbException.validation(
          "Number of parameters in request and statement don't match.");
    }
    Statement statement = parsed.statement();
    TableDescription table =
        database.describeTable(new DescribeTableRequest(statement.table())).table();
    List<String> keyNames = keyNames(table.keySchema());
    ExpressionText text = new ExpressionText(parameters);
    if (statement instanceof Statement.Insert insert) {
      return insert(database, r, insert, keyNames, text);
    }
    if (statement instanceof Statement.Select select) {
      return Selects.run(database, r, select, table, text, pointReadOnly);
    }
    if (statement instanceof Statement.Update update) {
      return update(database, r, update, keyNames, text);
    }
    return delete(database, r, (Statement.Delete) statement, keyNames, text);
  }

  /** The key attributes of a table or an index, partition key first. */
  static List<String> keyNames(List<KeySchemaElement> keySchema) {
    List<String> names = new ArrayList<>();
    for (KeySchemaElement element : keySchema) {
      if (element.keyType().equals("HASH")) {
        names.add(0, element.attributeName());
      } else {
        names.add(element.attributeName());
      }
    }
    return names;
  }

  private static ExecuteStatementResponse insert(
      Database database,
      ExecuteStatementRequest r,
      Statement.Insert insert,
      List<String> keyNames,
      ExpressionText text) {
    AttributeValue item = text.bind(insert.item());
    if (!(item instanceof AttributeValue.M map)) {
      throw DynamoDbException.validation("An INSERT's VALUE must be a map of the item");
    }
    String condition = "attribute_not_exists(" + text.name(keyNames.get(0)) + ")";
    try {
      PutItemResponse put =
          database.putItem(
              new PutItemRequest(
                  insert.table(), map.value(), condition, text.names(), null, null,
                  r.returnConsumedCapacity(), null, null, null, null));
      return written(null, put.consumedCapacity());
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ConditionalCheckFailedException) {
        throw new DynamoDbException(
            ErrorType.DuplicateItemException, "Duplicate primary key exists in table");
      }
      throw e;
    }
  }

  private static ExecuteStatementResponse update(
      Database database,
      ExecuteStatementRequest r,
      Statement.Update update,
      List<String> keyNames,
      ExpressionText text) {
    KeyedWhere where = KeyedWhere.of(update.where(), keyNames, text);
    String updateExpression = UpdateText.of(update.actions(), text);
    // DynamoDB's UPDATE changes an item that exists; of one that does not, the condition fails.
    String condition = "attribute_exists(" + text.name(keyNames.get(0)) + ")";
    if (where.condition() != null) {
      condition += " AND " + text.condition(where.condition());
    }
    UpdateItemResponse updated =
        database.updateItem(
            new UpdateItemRequest(
                update.table(), where.key(), updateExpression, condition, text.names(),
                text.values(), update.returnValues(), r.returnConsumedCapacity(), null,
                r.returnValuesOnConditionCheckFailure(), null, null, null));
    return written(updated.attributes(), updated.consumedCapacity());
  }

  private static ExecuteStatementResponse delete(
      Database database,
      ExecuteStatementRequest r,
      Statement.Delete delete,
      List<String> keyNames,
      ExpressionText text) {
    if (delete.returnValues() != null && !delete.returnValues().equals("ALL_OLD")) {
      throw DynamoDbException.validation("A DELETE can return ALL OLD * only");
    }
    KeyedWhere where = KeyedWhere.of(delete.where(), keyNames, text);
    String condition = where.condition() == null ? null : text.condition(where.condition());
    DeleteItemResponse deleted =
        database.deleteItem(
            new DeleteItemRequest(
                delete.table(), where.key(), condition, text.names(), text.values(),
                delete.returnValues(), r.returnConsumedCapacity(), null,
                r.returnValuesOnConditionCheckFailure(), null, null));
    return written(deleted.attributes(), deleted.consumedCapacity());
  }

  /** A write's answer: the item it returns (RETURNING), else no items. */
  private static ExecuteStatementResponse written(
      Map<String, AttributeValue> attributes, io.stator.api.ConsumedCapacity capacity) {
    List<Map<String, AttributeValue>> items =
        attributes == null ? List.of() : List.of(attributes);
    return new ExecuteStatementResponse(items, null, capacity, null);
  }
}
