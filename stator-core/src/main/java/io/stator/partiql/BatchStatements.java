package io.stator.partiql;

import io.stator.api.BatchExecuteStatementRequest;
import io.stator.api.BatchExecuteStatementResponse;
import io.stator.api.BatchStatementError;
import io.stator.api.BatchStatementRequest;
import io.stator.api.BatchStatementResponse;
import io.stator.api.ConsumedCapacity;
import io.stator.api.Database;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteStatementResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * BatchExecuteStatement: up to 25 statements, all reads or all writes, each run as
 * ExecuteStatement runs it and each succeeding or failing on its own, as DynamoDB's batch
 * does; a failure is reported in the statement's response (BatchStatementError), never for
 * the whole request.
 *
 * <p>Each statement is its own GetItem, PutItem, UpdateItem or DeleteItem rather than one part
 * of a BatchGetItem or BatchWriteItem: a batch's UPDATE and its conditions have no place in
 * BatchWriteItem, and the outcome (each statement atomic, none with the others) is the same.
 * What is checked of the whole request fails it whole: reads mixed with writes. A statement
 * that does not parse is its own error, as DynamoDB reports it, and the others run.
 */
public final class BatchStatements {
  private static final int MAX_STATEMENTS = 25;

  private BatchStatements() {}

  public static BatchExecuteStatementResponse execute(
      Database database, BatchExecuteStatementRequest r) {
    List<BatchStatementRequest> statements = r.statements();
    StatementList list = StatementList.of(
        statements, BatchStatementRequest::statement, MAX_STATEMENTS, "Statements", "batch",
        true);
    List<Parser.Parsed> parsed = list.parsed();
    List<BatchStatementResponse> responses = new ArrayList<>();
    List<ConsumedCapacity> capacities = new ArrayList<>();
    for (int i = 0; i < parsed.size(); i++) {
      BatchStatementRequest statement = statements.get(i);
      DynamoDbException failed = list.failures().get(i);
      if (failed != null) {
        responses.add(new BatchStatementResponse(
            new BatchStatementError(code(failed.type()), failed.getMessage(), null), null, null));
        continue;
      }
      String table = parsed.get(i).statement().table();
      ExecuteStatementRequest request =
          new ExecuteStatementRequest(
              statement.statement(), statement.parameters(), statement.consistentRead(), null,
              r.returnConsumedCapacity(), null, statement.returnValuesOnConditionCheckFailure());
      try {
        ExecuteStatementResponse done = Statements.run(database, request, parsed.get(i), true);
        boolean read = list.reads();
        responses.add(
            new BatchStatementResponse(
                null, table, read && !done.items().isEmpty() ? done.items().get(0) : null));
        if (done.consumedCapacity() != null) {
          capacities.add(done.consumedCapacity());
        }
      } catch (DynamoDbException e) {
        responses.add(
            new BatchStatementResponse(
                new BatchStatementError(code(e.type()), e.getMessage(), e.item()), table, null));
      }
    }
    return new BatchExecuteStatementResponse(responses, capacities.isEmpty() ? null : capacities);
  }

  /** DynamoDB's BatchStatementErrorCodeEnum for an operation's error. */
  private static String code(ErrorType type) {
    return switch (type) {
      case ConditionalCheckFailedException -> "ConditionalCheckFailed";
      case DuplicateItemException -> "DuplicateItem";
      case ResourceNotFoundException -> "ResourceNotFound";
      case ValidationException -> "ValidationError";
      case ProvisionedThroughputExceededException -> "ProvisionedThroughputExceeded";
      case ItemCollectionSizeLimitExceededException -> "ItemCollectionSizeLimitExceeded";
      case TransactionConflictException -> "TransactionConflict";
      case RequestLimitExceeded -> "RequestLimitExceeded";
      case ThrottlingException -> "ThrottlingError";
      case AccessDeniedException -> "AccessDenied";
      default -> "InternalServerError";
    };
  }
}
