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
import io.stator.api.TableDescription;
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
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
  private static final String VALIDATION_ERROR = "ValidationError";
  /** TransactWriteItems' words for a key that is not the table's. */
  private static final String KEY_MISMATCH = "The provided key element does not match the schema";

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
    Cancellations cancellations = new Cancellations(parsed.size());
    for (int i = 0; i < parsed.size(); i++) {
      Parser.Parsed p = parsed.get(i);
      List<AttributeValue> parameters = r.transactStatements().get(i).parameters();
      gets.add(cancellations.member(i, () -> get(database, p, parameters)));
    }
    cancellations.throwAny();
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
    TableDescription table = Statements.describe(database, s);
    List<String> keyNames = Statements.keyNames(table.keySchema());
    Write w = Write.of(s, keyNames, text);
    if (w.returnValues() != null) {
      throw DynamoDbException.validation(
          "RETURNING clause is not supported in ExecuteTransaction.");
    }
    Map<String, String> types = Selects.keyTypes(table, keyNames);
    for (String name : keyNames) {
      String type = types.get(name);
      if (w.isInsert() && !w.item().containsKey(name)) {
        throw new Cancelled(new CancellationReason(null, VALIDATION_ERROR, "One or more"
            + " parameter values were invalid: Missing the key " + name + " in the item"));
      }
      AttributeValue value = w.isInsert() ? w.item().get(name) : w.key().get(name);
      if (!w.isInsert() && !value.type().equals(type)) {
        throw new Cancelled(new CancellationReason(null, VALIDATION_ERROR, KEY_MISMATCH));
      }
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
    if (select.index() != null) {
      throw DynamoDbException.validation(
          "Reads on indices are not supported within transactions.");
    }
    KeyedWhere where =
        select.where() == null
            ? null
            : KeyedWhere.ofOrNull(select.where(), keyNames, text, KeyedWhere.Use.POINT_READ);
    if (where == null || !where.onlyKey()) {
      throw DynamoDbException.validation("Select statements within ExecuteTransaction must"
          + " specify the primary key in the where clause.");
    }
    String projection = Selects.projection(select, text);
    return new TransactGetItem(new Get(where.key(), select.table(), projection, text.names()));
  }

  /**
   * What a statement that cannot run does to the transaction, as DynamoDB answers it. A
   * ValidationException raised while translating fails the whole request, named by the
   * statement's place ("Validation failed in TransactStatements[i]: "). A statement on a table
   * that does not exist, or a write that does not name one item by a key of the key's types,
   * cancels the transaction instead, with its reason in the statement's place and None in the
   * others, after every statement is translated (a refusal of a later one still fails the whole
   * request), as recorded from DynamoDB.
   */
  private static final class Cancellations {
    private final List<CancellationReason> reasons;
    private boolean any;

    Cancellations(int statements) {
      reasons = new ArrayList<>(Collections.nCopies(statements, CancellationReason.NONE));
    }

    /** Statement {@code i} translated, or null where it cancels the transaction. */
    <T> T member(int i, Supplier<T> translate) {
      try {
        return translate.get();
      } catch (Cancelled e) {
        return cancel(i, e.reason);
      } catch (DynamoDbException e) {
        if (e.type() == ErrorType.ResourceNotFoundException) {
          return cancel(i, new CancellationReason(null, "ResourceNotFound",
              "Requested resource not found"));
        }
        if (e.type() != ErrorType.ValidationException) {
          throw e;
        }
        if (e.getMessage().equals(KeyedWhere.NO_FULL_KEY)) {
          return cancel(i, new CancellationReason(null, VALIDATION_ERROR, KEY_MISMATCH));
        }
        if (e.getMessage().startsWith("Multiple conditions on same key")) {
          return cancel(i, new CancellationReason(null, VALIDATION_ERROR, e.getMessage()));
        }
        throw DynamoDbException.validation(StatementList.failedIn(MEMBER, i, e.getMessage()));
      }
    }

    private <T> T cancel(int i, CancellationReason reason) {
      reasons.set(i, reason);
      any = true;
      return null;
    }

    void throwAny() {
      if (any) {
        throw new TransactionCanceledException(reasons);
      }
    }
  }

  /** A statement's reason to cancel the transaction, found while translating it. */
  private static final class Cancelled extends RuntimeException {
    final CancellationReason reason;

    Cancelled(CancellationReason reason) {
      super(reason.message(), null, false, false);
      this.reason = reason;
    }
  }

  private static ExecuteTransactionResponse write(
      Database database, ExecuteTransactionRequest r, List<Parser.Parsed> parsed) {
    List<TransactWriteItem> writes = new ArrayList<>();
    List<Boolean> inserts = new ArrayList<>();
    Cancellations cancellations = new Cancellations(parsed.size());
    for (int i = 0; i < parsed.size(); i++) {
      ParameterizedStatement statement = r.transactStatements().get(i);
      Parser.Parsed p = parsed.get(i);
      Write w = cancellations.member(i, () -> write(database, p, statement.parameters()));
      if (w == null) {
        continue;
      }
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
    cancellations.throwAny();
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
