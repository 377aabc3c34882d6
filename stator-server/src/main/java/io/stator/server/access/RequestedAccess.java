package io.stator.server.access;

import io.stator.api.BatchExecuteStatementRequest;
import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchStatementRequest;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DescribeTimeToLiveRequest;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteTransactionRequest;
import io.stator.api.GetItemRequest;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.ParameterizedStatement;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.ScanRequest;
import io.stator.api.TagResourceRequest;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.api.streams.DescribeStreamRequest;
import io.stator.api.streams.GetRecordsRequest;
import io.stator.api.streams.GetShardIteratorRequest;
import io.stator.partiql.StatementTarget;
import io.stator.stream.ShardIterators;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The permissions a request needs, as DynamoDB's authorization reference lists them: the
 * operation's own action on the table, or on the index a Query or Scan reads; one action per
 * table for a batch; for a transaction, each item's own action ({@code dynamodb:PutItem},
 * {@code UpdateItem}, {@code DeleteItem}, {@code ConditionCheckItem}; {@code GetItem} for a
 * read) on its table; for PartiQL, the statement's form ({@code dynamodb:PartiQLSelect}, …) on
 * its table or index; the stream's ARN for the Streams API; {@code *} for what acts on no
 * resource (ListTables, ListStreams, DescribeLimits, DescribeEndpoints,
 * ListContributorInsights).
 *
 * <p>A request that names no table (it will fail its own validation) needs nothing here: its
 * refusal is the validation error, as it would be for a principal allowed everything.
 */
public final class RequestedAccess {
  private final String region;
  private final String account;

  public RequestedAccess(String region, String account) {
    this.region = region;
    this.account = account;
  }

  /** The permissions {@code request}, of {@code operation} as the wire names it, needs. */
  public List<AccessRequest> of(String operation, Object request) {
    Set<AccessRequest> out = new LinkedHashSet<>();
    String action = "dynamodb:" + operation.substring(operation.lastIndexOf('.') + 1);
    if (request instanceof QueryRequest r) {
      add(out, action, index(r.tableName(), r.indexName()));
    } else if (request instanceof ScanRequest r) {
      add(out, action, index(r.tableName(), r.indexName()));
    } else if (request instanceof BatchGetItemRequest r && r.requestItems() != null) {
      r.requestItems().keySet().forEach(t -> add(out, action, table(t)));
    } else if (request instanceof BatchWriteItemRequest r && r.requestItems() != null) {
      r.requestItems().keySet().forEach(t -> add(out, action, table(t)));
    } else if (request instanceof TransactWriteItemsRequest r && r.transactItems() != null) {
      r.transactItems().forEach(item -> transactWrite(out, item));
    } else if (request instanceof TransactGetItemsRequest r && r.transactItems() != null) {
      for (TransactGetItem item : r.transactItems()) {
        if (item != null && item.get() != null) {
          add(out, "dynamodb:GetItem", table(item.get().tableName()));
        }
      }
    } else if (request instanceof ExecuteStatementRequest r) {
      statement(out, r.statement());
    } else if (request instanceof BatchExecuteStatementRequest r && r.statements() != null) {
      for (BatchStatementRequest s : r.statements()) {
        statement(out, s == null ? null : s.statement());
      }
    } else if (request instanceof ExecuteTransactionRequest r && r.transactStatements() != null) {
      for (ParameterizedStatement s : r.transactStatements()) {
        statement(out, s == null ? null : s.statement());
      }
    } else if (request instanceof TagResourceRequest r) {
      add(out, action, r.resourceArn());
    } else if (request instanceof UntagResourceRequest r) {
      add(out, action, r.resourceArn());
    } else if (request instanceof ListTagsOfResourceRequest r) {
      add(out, action, r.resourceArn());
    } else if (request instanceof DescribeStreamRequest r) {
      add(out, action, r.streamArn());
    } else if (request instanceof GetShardIteratorRequest r) {
      add(out, action, r.streamArn());
    } else if (request instanceof GetRecordsRequest r) {
      add(out, action, ShardIterators.streamArn(r.shardIterator()));
    } else if (request instanceof UpdateContributorInsightsRequest r) {
      add(out, action, index(r.tableName(), r.indexName()));
    } else if (request instanceof DescribeContributorInsightsRequest r) {
      add(out, action, index(r.tableName(), r.indexName()));
    } else {
      String table = tableName(request);
      add(out, action, table == null ? (namesNoResource(operation) ? "*" : null) : table(table));
    }
    return List.copyOf(out);
  }

  /** The table of the operations that act on one table and name it in TableName. */
  private static String tableName(Object request) {
    if (request instanceof PutItemRequest r) {
      return r.tableName();
    } else if (request instanceof GetItemRequest r) {
      return r.tableName();
    } else if (request instanceof UpdateItemRequest r) {
      return r.tableName();
    } else if (request instanceof DeleteItemRequest r) {
      return r.tableName();
    } else if (request instanceof CreateTableRequest r) {
      return r.tableName();
    } else if (request instanceof DescribeTableRequest r) {
      return r.tableName();
    } else if (request instanceof UpdateTableRequest r) {
      return r.tableName();
    } else if (request instanceof DeleteTableRequest r) {
      return r.tableName();
    } else if (request instanceof DescribeTimeToLiveRequest r) {
      return r.tableName();
    } else if (request instanceof UpdateTimeToLiveRequest r) {
      return r.tableName();
    } else if (request instanceof DescribeContinuousBackupsRequest r) {
      return r.tableName();
    } else if (request instanceof UpdateContinuousBackupsRequest r) {
      return r.tableName();
    }
    return null;
  }

  /** Whether the operation acts on no resource, so IAM authorizes it on {@code *}. */
  private static boolean namesNoResource(String operation) {
    return switch (operation) {
      case "ListTables", "DescribeLimits", "DescribeEndpoints", "ListContributorInsights",
          "DynamoDBStreams_20120810.ListStreams" -> true;
      default -> false;
    };
  }

  private void transactWrite(Set<AccessRequest> out, TransactWriteItem item) {
    if (item == null) {
      return;
    }
    if (item.put() != null) {
      add(out, "dynamodb:PutItem", table(item.put().tableName()));
    }
    if (item.update() != null) {
      add(out, "dynamodb:UpdateItem", table(item.update().tableName()));
    }
    if (item.delete() != null) {
      add(out, "dynamodb:DeleteItem", table(item.delete().tableName()));
    }
    if (item.conditionCheck() != null) {
      add(out, "dynamodb:ConditionCheckItem", table(item.conditionCheck().tableName()));
    }
  }

  private void statement(Set<AccessRequest> out, String statement) {
    StatementTarget target = statement == null ? null : StatementTarget.of(statement);
    if (target != null) {
      add(out, "dynamodb:" + target.action(), index(target.table(), target.index()));
    }
  }

  private static void add(Set<AccessRequest> out, String action, String resource) {
    if (resource != null) {
      out.add(new AccessRequest(action, resource));
    }
  }

  /** A table's ARN in this server's region and account, or null for no table name. */
  String table(String name) {
    return name == null ? null : "arn:aws:dynamodb:" + region + ":" + account + ":table/" + name;
  }

  private String index(String table, String index) {
    String arn = table(table);
    return arn == null || index == null ? arn : arn + "/index/" + index;
  }
}
