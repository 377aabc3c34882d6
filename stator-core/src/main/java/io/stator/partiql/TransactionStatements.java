package io.stator.partiql;

import io.stator.api.CancellationReason;
import io.stator.api.ConditionCheck;
import io.stator.api.Database;
import io.stator.api.Delete;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ExecuteTransactionRequest;
import io.stator.api.ExecuteTransactionResponse;
import io.stator.api.Get;
import io.stator.api.ItemResponse;
import io.stator.api.ParameterizedStatement;
import io.stator.api.Put;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactGetItemsResponse;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactWriteItemsResponse;
import io.stator.api.TransactionCanceledException;
import io.stator.api.Update;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * ExecuteTransaction: up to 100 statements, all reads or all writes, run as one
 * TransactGetItems or TransactWriteItems, so they are atomic and isolated exactly as those
 * (the same commit path, ClientRequestToken idempotency, one cancellation reason per
 * statement). An INSERT whose key has an item is cancelled for {@code DuplicateItem}, as
 * DynamoDB reports it, where the Put's own reason would be ConditionalCheckFailed.
 *
 * <p>Each statement is translated to its item operation before any runs, and a statement
 * refused there fails the whole request, named by its place ("Validation failed in
 * TransactStatements[i]: " and why), as DynamoDB names it.
 */
public final class TransactionStatements {
  private static final int MAX_STATEMENTS = 100;
  private static final String MEMBER = "TransactStatements";

  private TransactionStatements() {}

  public static ExecuteTransactionResponse execute(
      Database database, ExecuteTransactionRequest r) {
    List<ParameterizedStatement> statements = r.transactStatements();
    StatementList list = StatementList.of(statements, ParameterizedStatement::statement,
        MAX_STATEMENTS, MEMBER, "transaction", false);
    List<Parser.Parsed> parsed = list.parsed();
    return list.reads() ? read(database, r, parsed) : write(database, r, parsed);
  }

  private static ExecuteTransactionResponse read(
      Database database, ExecuteTransactionRequest r, List<Parser.Parsed> parsed) {
    List<TransactGetItem> gets = new ArrayList<>();
    for (int i = 0; i < parsed.size(); i++) {
      Parser.Parsed p = parsed.get(i);
      List<AttributeValue> parameters = r.transactStatements().get(i).parameters();
      gets.add(member(i, () -> get(database, p, parameters)));
    }
    TransactGetItemsResponse got =
        database.transactGetItems(new TransactGetItemsRequest(gets, r.returnConsumedCapacity()));
    List<ItemResponse> responses = new ArrayList<>(got.responses().size());
    for (int i = 0; i < got.responses().size(); i++) {
      Statement.Select select = (Statement.Select) parsed.get(i).statement();
      responses.add(new ItemResponse(Columns.of(select, got.responses().get(i).item())));
    }
    return new ExecuteTransactionResponse(responses, got.consumedCapacity());
  }

  /** A write statement as its item operation; a transaction takes no RETURNING. */
  private static Write write(
      Database database, Parser.Parsed parsed, List<AttributeValue> parameters) {
    ExpressionText text = Statements.bind(parsed, parameters);
    Statement s = parsed.statement();
    Write w =
        Write.of(s, Statements.keyNames(Statements.describe(database, s).keySchema()), text);
    if (w.returnValues() != null) {
      throw DynamoDbException.validation(
          "RETURNING clause is not supported in ExecuteTransaction.");
    }
    return w;
  }

  /** A SELECT as the Get of a TransactGetItems: it must name one item by its full key. */
  private static TransactGetItem get(
      Database database, Parser.Parsed parsed, List<AttributeValue> parameters) {
    Statement.Select select = (Statement.Select) parsed.statement();
    ExpressionText text = Statements.bind(parsed, parameters);
    List<String> keyNames =
        Statements.keyNames(Statements.describe(database, select).keySchema());
    KeyedWhere where =
        select.where() == null
            ? null
            : KeyedWhere.ofOrNull(select.where(), keyNames, text, KeyedWhere.Use.POINT_READ);
    if (select.index() != null || where == null || !where.onlyKey()) {
      throw DynamoDbException.validation("Select statements within ExecuteTransaction must"
          + " specify the primary key in the where clause.");
    }
    String projection = Selects.projection(select, text);
    return new TransactGetItem(new Get(where.key(), select.table(), projection, text.names()));
  }

  /**
   * Translates statement {@code i}; a ValidationException it raises fails the request named by
   * the statement's place, as DynamoDB's does. A WHERE clause without the full key keeps its
   * own words: DynamoDB's local edition answers it apart (as a cancellation), and no recording
   * from DynamoDB settles it, so Stator leaves it as ExecuteStatement words it.
   */
  private static <T> T member(int i, Supplier<T> translate) {
    try {
      return translate.get();
    } catch (DynamoDbException e) {
      if (e.type() != ErrorType.ValidationException
          || e.getMessage().equals(KeyedWhere.NO_FULL_KEY)) {
        throw e;
      }
      throw DynamoDbException.validation(StatementList.failedIn(MEMBER, i, e.getMessage()));
    }
  }

  private static ExecuteTransactionResponse write(
      Database database, ExecuteTransactionRequest r, List<Parser.Parsed> parsed) {
    List<TransactWriteItem> writes = new ArrayList<>();
    List<Boolean> inserts = new ArrayList<>();
    for (int i = 0; i < parsed.size(); i++) {
      ParameterizedStatement statement = r.transactStatements().get(i);
      Parser.Parsed p = parsed.get(i);
      Write w = member(i, () -> write(database, p, statement.parameters()));
      String onFailure = statement.returnValuesOnConditionCheckFailure();
      inserts.add(w.isInsert());
      if (w.isConditionCheck()) {
        writes.add(new TransactWriteItem(
            new ConditionCheck(w.key(), w.table(), w.condition(), w.names(), w.values(),
                onFailure),
            null, null, null));
      } else if (w.isInsert()) {
        writes.add(new TransactWriteItem(null,
            new Put(w.item(), w.table(), w.condition(), w.names(), w.values(), onFailure),
            null, null));
      } else if (w.updateExpression() != null) {
        writes.add(new TransactWriteItem(null, null, null,
            new Update(w.key(), w.updateExpression(), w.table(), w.condition(), w.names(),
                w.values(), onFailure)));
      } else {
        writes.add(new TransactWriteItem(null, null,
            new Delete(w.key(), w.table(), w.condition(), w.names(), w.values(), onFailure),
            null));
      }
    }
    return commit(database, r, writes, inserts);
  }

  private static ExecuteTransactionResponse commit(Database database,
      ExecuteTransactionRequest r, List<TransactWriteItem> writes, List<Boolean> inserts) {
    try {
      TransactWriteItemsResponse done =
          database.transactWriteItems(
              new TransactWriteItemsRequest(
                  writes, r.returnConsumedCapacity(), null, r.clientRequestToken()));
      return new ExecuteTransactionResponse(null, done.consumedCapacity());
    } catch (TransactionCanceledException e) {
      List<CancellationReason> reasons = new ArrayList<>(e.cancellationReasons());
      boolean changed = false;
      for (int i = 0; i < reasons.size(); i++) {
        if (inserts.get(i) && "ConditionalCheckFailed".equals(reasons.get(i).code())) {
          reasons.set(i, new CancellationReason(
              null, "DuplicateItem", Write.duplicate().getMessage()));
          changed = true;
        }
      }
      throw changed ? new TransactionCanceledException(reasons) : e;
    }
  }
}
