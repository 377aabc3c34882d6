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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
  private static final Pattern EXPRESSION_PREFIX = Pattern.compile(
      "Invalid (Filter|Update|Condition|KeyCondition|Projection)Expression: ");

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
    try {
      return runAs(database, r, parsed, pointReadOnly);
    } catch (DynamoDbException e) {
      throw inStatementWords(e);
    }
  }

  /**
   * A refusal of the expressions a statement runs as, in a statement's words: without the name
   * of the expression that is DynamoDB's own business ("Invalid FilterExpression: ", "Invalid
   * UpdateExpression: "), as DynamoDB answers a statement (recorded for a type error in a
   * WHERE clause, in a SET and an IN of too many operands).
   */
  static DynamoDbException inStatementWords(DynamoDbException e) {
    Matcher prefix = EXPRESSION_PREFIX.matcher(e.getMessage() == null ? "" : e.getMessage());
    if (e.type() != ErrorType.ValidationException || !prefix.lookingAt()) {
      return e;
    }
    return DynamoDbException.validation(e.getMessage().substring(prefix.end()));
  }

  private static ExecuteStatementResponse runAs(
      Database database, ExecuteStatementRequest r, Parser.Parsed parsed, boolean pointReadOnly) {
    ExpressionText text = bind(parsed, r.parameters());
    Statement statement = parsed.statement();
    TableDescription table = describe(database, statement);
    List<String> keyNames = keyNames(table.keySchema());
    if (statement instanceof Statement.Select select) {
      ExecuteStatementResponse read = Selects.run(database, r, select, table, text, pointReadOnly);
      return new ExecuteStatementResponse(Columns.of(select, read.items()), read.nextToken(),
          read.consumedCapacity(), read.lastEvaluatedKey());
    }
    if (statement instanceof Statement.Exists) {
      throw DynamoDbException.validation(
          "EXISTS can only be used in ExecuteTransaction write requests.");
    }
    return write(database, r, Write.of(statement, keyNames, text));
  }

  /** The statement's values bound to its Parameters, once their count is checked. */
  static ExpressionText bind(Parser.Parsed parsed, List<AttributeValue> parameters) {
    List<AttributeValue> given = parameters == null ? List.of() : parameters;
    if (given.size() != parsed.parameterCount()) {
      throw DynamoDbException.validation(
          "Number of parameters in request and statement don't match.");
    }
    return new ExpressionText(given);
  }

  /** The statement's table; ResourceNotFoundException if there is none of its name. */
  static TableDescription describe(Database database, Statement statement) {
    return database.describeTable(new DescribeTableRequest(statement.table())).table();
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

  private static ExecuteStatementResponse write(
      Database database, ExecuteStatementRequest r, Write w) {
    if (w.isInsert()) {
      try {
        PutItemResponse put =
            database.putItem(
                new PutItemRequest(
                    w.table(), w.item(), w.condition(), w.names(), null, null,
                    r.returnConsumedCapacity(), null, null, null, null));
        return written(null, put.consumedCapacity());
      } catch (DynamoDbException e) {
        if (e.type() == ErrorType.ConditionalCheckFailedException) {
          throw Write.duplicate();
        }
        throw e;
      }
    }
    if (w.updateExpression() != null) {
      UpdateItemResponse updated =
          database.updateItem(
              new UpdateItemRequest(
                  w.table(), w.key(), w.updateExpression(), w.condition(), w.names(), w.values(),
                  w.returnValues(), r.returnConsumedCapacity(), null,
                  r.returnValuesOnConditionCheckFailure(), null, null, null));
      return written(updated.attributes(), updated.consumedCapacity());
    }
    DeleteItemResponse deleted =
        database.deleteItem(
            new DeleteItemRequest(
                w.table(), w.key(), w.condition(), w.names(), w.values(), w.returnValues(),
                r.returnConsumedCapacity(), null, r.returnValuesOnConditionCheckFailure(), null,
                null));
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
