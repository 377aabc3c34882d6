package io.stator.server.wire;

import io.stator.api.BatchExecuteStatementRequest;
import io.stator.api.BatchStatementRequest;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteTransactionRequest;
import io.stator.api.ParameterizedStatement;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.util.List;

/** Readers of the PartiQL operations' requests, member by member as in {@link Requests}. */
final class StatementRequests {
  private StatementRequests() {}

  static ExecuteStatementRequest executeStatement(JsonInput in) throws IOException {
    String statement = null;
    List<AttributeValue> parameters = null;
    Boolean consistentRead = null;
    String nextToken = null;
    String returnConsumedCapacity = null;
    Integer limit = null;
    String returnValuesOnConditionCheckFailure = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "Statement" -> statement = in.string();
        case "Parameters" -> parameters = in.attributeValueList();
        case "ConsistentRead" -> consistentRead = in.bool();
        case "NextToken" -> nextToken = in.string();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "Limit" -> limit = in.integer();
        case "ReturnValuesOnConditionCheckFailure" ->
            returnValuesOnConditionCheckFailure = in.string();
        default -> in.skip();
      }
    }
    return new ExecuteStatementRequest(
        statement,
        parameters,
        consistentRead,
        nextToken,
        returnConsumedCapacity,
        limit,
        returnValuesOnConditionCheckFailure);
  }

  static BatchExecuteStatementRequest batchExecuteStatement(JsonInput in) throws IOException {
    List<BatchStatementRequest> statements = null;
    String returnConsumedCapacity = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "Statements" -> statements = in.list(StatementRequests::batchStatement);
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        default -> in.skip();
      }
    }
    return new BatchExecuteStatementRequest(statements, returnConsumedCapacity);
  }

  private static BatchStatementRequest batchStatement(JsonInput in) throws IOException {
    return in.struct("BatchStatementRequest", s -> {
      String statement = null;
      List<AttributeValue> parameters = null;
      Boolean consistentRead = null;
      String returnValuesOnConditionCheckFailure = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Statement" -> statement = s.string();
          case "Parameters" -> parameters = s.attributeValueList();
          case "ConsistentRead" -> consistentRead = s.bool();
          case "ReturnValuesOnConditionCheckFailure" ->
              returnValuesOnConditionCheckFailure = s.string();
          default -> s.skip();
        }
      }
      return new BatchStatementRequest(
          statement, parameters, consistentRead, returnValuesOnConditionCheckFailure);
    });
  }

  static ExecuteTransactionRequest executeTransaction(JsonInput in) throws IOException {
    List<ParameterizedStatement> statements = null;
    String clientRequestToken = null;
    String returnConsumedCapacity = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TransactStatements" ->
            statements = in.list(StatementRequests::parameterizedStatement);
        case "ClientRequestToken" -> clientRequestToken = in.string();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        default -> in.skip();
      }
    }
    return new ExecuteTransactionRequest(statements, clientRequestToken, returnConsumedCapacity);
  }

  private static ParameterizedStatement parameterizedStatement(JsonInput in) throws IOException {
    return in.struct("ParameterizedStatement", s -> {
      String statement = null;
      List<AttributeValue> parameters = null;
      String returnValuesOnConditionCheckFailure = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Statement" -> statement = s.string();
          case "Parameters" -> parameters = s.attributeValueList();
          case "ReturnValuesOnConditionCheckFailure" ->
              returnValuesOnConditionCheckFailure = s.string();
          default -> s.skip();
        }
      }
      return new ParameterizedStatement(
          statement, parameters, returnValuesOnConditionCheckFailure);
    });
  }
}
