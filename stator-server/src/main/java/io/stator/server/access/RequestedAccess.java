package io.stator.server.access;

import io.stator.api.BatchExecuteStatementRequest;
import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchStatementRequest;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.CreateBackupRequest;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteResourcePolicyRequest;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeExportRequest;
import io.stator.api.DescribeImportRequest;
import io.stator.api.DescribeStreamRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteTransactionRequest;
import io.stator.api.ExportTableToPointInTimeRequest;
import io.stator.api.GetItemRequest;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetResourcePolicyRequest;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.ImportTableRequest;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.ParameterizedStatement;
import io.stator.api.PutItemRequest;
import io.stator.api.PutResourcePolicyRequest;
import io.stator.api.QueryRequest;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.ScanRequest;
import io.stator.api.TableRequest;
import io.stator.api.TagResourceRequest;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.api.WriteRequest;
import io.stator.partiql.StatementTarget;
import io.stator.schema.PartitionKeys;
import io.stator.stream.ShardIterators;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

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
 * <p>Each permission carries the values its conditions may compare ({@link RequestContext}):
 * {@code dynamodb:LeadingKeys}, the partition key values of the items of that table (or index)
 * the request reads or writes, found through the table's key schema only when a condition asks
 * (none for a Scan, as on DynamoDB, where a {@code ForAllValues} condition on them holds; unknown
 * for PartiQL, so refused); {@code dynamodb:Select} and {@code dynamodb:ReturnValues} as the
 * request gives them.
 *
 * <p>A request that names no table (it will fail its own validation) needs nothing here: its
 * refusal is the validation error, as it would be for a principal allowed everything.
 */
public final class RequestedAccess {
  /** The partition key attribute of a table (index null) or index; null for no such table. */
  @FunctionalInterface
  public interface KeySchemas {
    String partitionKey(String table, String index);

    /**
     * The database's key schemas, read from its definitions (never a table's size); none for a
     * database that does not offer them, so a condition on leading keys is refused there.
     */
    static KeySchemas of(Database database) {
      if (!(database instanceof PartitionKeys keys)) {
        return (table, index) -> null;
      }
      return (table, index) -> {
        try {
          return keys.partitionKey(table, index);
        } catch (DynamoDbException noSuchTable) {
          return null;
        }
      };
    }
  }

  private static final List<String> RESTORE_WRITES = List.of("dynamodb:BatchWriteItem",
      "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query",
      "dynamodb:Scan", "dynamodb:UpdateItem");

  private final String region;
  private final String account;
  private final KeySchemas schemas;

  public RequestedAccess(String region, String account, KeySchemas schemas) {
    this.region = region;
    this.account = account;
    this.schemas = schemas;
  }

  /** The permissions {@code request}, of {@code operation} as the wire names it, needs. */
  public List<AccessRequest> of(String operation, Object request) {
    Needed out = new Needed();
    String action = "dynamodb:" + operation.substring(operation.lastIndexOf('.') + 1);
    if (request instanceof QueryRequest r) {
      Context c = add(out, action, index(r.tableName(), r.indexName()), r.tableName(),
          r.indexName());
      if (c != null) {
        c.select = r.select();
        c.query = r;
        c.attributes(() -> AccessedAttributes.of(r));
      }
    } else if (request instanceof ScanRequest r) {
      Context c = add(out, action, index(r.tableName(), r.indexName()), r.tableName(),
          r.indexName());
      if (c != null) {
        c.select = r.select();
        c.noKeys = true;
        c.attributes(() -> AccessedAttributes.of(r));
      }
    } else if (request instanceof BatchGetItemRequest r && r.requestItems() != null) {
      r.requestItems().forEach((t, keys) -> {
        Context c = add(out, action, table(t), t, null);
        if (c != null && keys != null && keys.keys() != null) {
          c.keys.addAll(keys.keys());
          c.attributes(() -> AccessedAttributes.ofBatchGet(keys));
        }
      });
    } else if (request instanceof BatchWriteItemRequest r && r.requestItems() != null) {
      r.requestItems().forEach((t, writes) -> {
        Context c = add(out, action, table(t), t, null);
        for (WriteRequest w : writes == null || c == null ? List.<WriteRequest>of() : writes) {
          if (w != null && w.putRequest() != null) {
            c.keys.add(w.putRequest().item());
          } else if (w != null && w.deleteRequest() != null) {
            c.keys.add(w.deleteRequest().key());
          }
        }
        if (c != null) {
          c.attributes(() -> AccessedAttributes.ofItems(c.keys));
        }
      });
    } else if (request instanceof TransactWriteItemsRequest r && r.transactItems() != null) {
      r.transactItems().forEach(item -> transactWrite(out, item));
    } else if (request instanceof TransactGetItemsRequest r && r.transactItems() != null) {
      for (TransactGetItem item : r.transactItems()) {
        if (item != null && item.get() != null) {
          String t = item.get().tableName();
          touches(add(out, "dynamodb:GetItem", table(t), t, null), item.get().key(), item.get());
        }
      }
    } else if (request instanceof ExecuteStatementRequest r) {
      statement(out, r.statement(), r.parameters());
    } else if (request instanceof BatchExecuteStatementRequest r && r.statements() != null) {
      for (BatchStatementRequest s : r.statements()) {
        if (s != null) {
          statement(out, s.statement(), s.parameters());
        }
      }
    } else if (request instanceof ExecuteTransactionRequest r && r.transactStatements() != null) {
      for (ParameterizedStatement s : r.transactStatements()) {
        if (s != null) {
          statement(out, s.statement(), s.parameters());
        }
      }
    } else if (request instanceof PutResourcePolicyRequest r) {
      add(out, action, r.resourceArn(), null, null);
    } else if (request instanceof GetResourcePolicyRequest r) {
      add(out, action, r.resourceArn(), null, null);
    } else if (request instanceof DeleteResourcePolicyRequest r) {
      add(out, action, r.resourceArn(), null, null);
    } else if (request instanceof TagResourceRequest r) {
      add(out, action, r.resourceArn(), null, null);
    } else if (request instanceof UntagResourceRequest r) {
      add(out, action, r.resourceArn(), null, null);
    } else if (request instanceof ListTagsOfResourceRequest r) {
      add(out, action, r.resourceArn(), null, null);
    } else if (request instanceof DescribeStreamRequest r) {
      add(out, action, r.streamArn(), null, null);
    } else if (request instanceof GetShardIteratorRequest r) {
      add(out, action, r.streamArn(), null, null);
    } else if (request instanceof GetRecordsRequest r) {
      add(out, action, ShardIterators.streamArn(r.shardIterator()), null, null);
    } else if (request instanceof CreateBackupRequest r) {
      add(out, action, tableOrArn(r.tableName()), null, null);
    } else if (request instanceof DescribeBackupRequest r) {
      add(out, action, r.backupArn(), null, null);
    } else if (request instanceof DeleteBackupRequest r) {
      add(out, action, r.backupArn(), null, null);
    } else if (request instanceof RestoreTableFromBackupRequest r && r.targetTableName() != null) {
      if (add(out, action, r.backupArn(), null, null) != null) {
        restoreWrites(out, r.targetTableName());
      }
    } else if (request instanceof RestoreTableToPointInTimeRequest r
        && r.targetTableName() != null) {
      String source = r.sourceTableArn() != null ? r.sourceTableArn() : r.sourceTableName();
      if (add(out, action, tableOrArn(source), null, null) != null) {
        restoreWrites(out, r.targetTableName());
      }
    } else if (request instanceof ExportTableToPointInTimeRequest r) {
      add(out, action, tableOrArn(r.tableArn()), null, null);
    } else if (request instanceof DescribeExportRequest r) {
      add(out, action, r.exportArn(), null, null);
    } else if (request instanceof ImportTableRequest r && r.tableCreationParameters() != null
        && r.tableCreationParameters().tableName() != null) {
      String target = r.tableCreationParameters().tableName();
      if (add(out, action, table(target), null, null) != null) {
        restoreWrites(out, target); // an import writes its new table's items, as a restore does
      }
    } else if (request instanceof DescribeImportRequest r) {
      add(out, action, r.importArn(), null, null);
    } else if (request instanceof UpdateContributorInsightsRequest r) {
      add(out, action, index(r.tableName(), r.indexName()), null, null);
    } else if (request instanceof DescribeContributorInsightsRequest r) {
      add(out, action, index(r.tableName(), r.indexName()), null, null);
    } else {
      String table = tableName(request);
      Context c = add(out, action,
          table == null ? (namesNoResource(operation) ? "*" : null) : table(table), table, null);
      if (c != null) {
        item(c, request);
      }
      if (request instanceof CreateTableRequest r && r.resourcePolicy() != null && table != null) {
        // attaching a policy at creation needs the permission to attach one (IAM's reference)
        add(out, "dynamodb:PutResourcePolicy", table(table), table, null);
      }
    }
    return out.list();
  }

  /** The key (or item) and ReturnValues of the single-item operations. */
  private static void item(Context c, Object request) {
    c.attributes(() -> AccessedAttributes.of(request));
    if (request instanceof GetItemRequest r) {
      keyOf(c, r.key());
    } else if (request instanceof PutItemRequest r) {
      keyOf(c, r.item());
      c.returnValues = r.returnValues();
    } else if (request instanceof UpdateItemRequest r) {
      keyOf(c, r.key());
      c.returnValues = r.returnValues();
    } else if (request instanceof DeleteItemRequest r) {
      keyOf(c, r.key());
      c.returnValues = r.returnValues();
    }
  }

  private static void keyOf(Context c, Map<String, AttributeValue> key) {
    if (c != null && key != null) {
      c.keys.add(key);
    }
  }

  /** One action of a transaction: its key, and the attributes it names. */
  private static void touches(Context c, Map<String, AttributeValue> key, Object action) {
    keyOf(c, key);
    if (c != null) {
      c.attributes(() -> AccessedAttributes.of(action));
    }
  }

  /** The table of the operations that act on one table and name it in TableName. */
  private static String tableName(Object request) {
    return request instanceof TableRequest r ? r.tableName() : null;
  }

  /**
   * A restore writes its new table's items: it needs the item actions on it, as DynamoDB's IAM
   * documents for RestoreTableFromBackup and RestoreTableToPointInTime, so that a key that may
   * read only some tables cannot restore another's data into one it can read.
   */
  private void restoreWrites(Needed out, String target) {
    for (String write : RESTORE_WRITES) {
      add(out, write, table(target), null, null);
    }
  }

  /** A table's ARN from its name, or the ARN given instead of a name. */
  private String tableOrArn(String nameOrArn) {
    return nameOrArn == null || !nameOrArn.startsWith("arn:") ? table(nameOrArn) : nameOrArn;
  }

  /** Whether the operation acts on no resource, so IAM authorizes it on {@code *}. */
  private static boolean namesNoResource(String operation) {
    return switch (operation) {
      case "ListTables", "DescribeLimits", "DescribeEndpoints", "ListContributorInsights",
          "ListBackups", "ListExports", "ListImports", "DynamoDBStreams_20120810.ListStreams"
          -> true;
      default -> false;
    };
  }

  private void transactWrite(Needed out, TransactWriteItem item) {
    if (item == null) {
      return;
    }
    if (item.put() != null) {
      String t = item.put().tableName();
      touches(add(out, "dynamodb:PutItem", table(t), t, null), item.put().item(), item.put());
    }
    if (item.update() != null) {
      String t = item.update().tableName();
      touches(add(out, "dynamodb:UpdateItem", table(t), t, null), item.update().key(),
          item.update());
    }
    if (item.delete() != null) {
      String t = item.delete().tableName();
      touches(add(out, "dynamodb:DeleteItem", table(t), t, null), item.delete().key(),
          item.delete());
    }
    if (item.conditionCheck() != null) {
      String t = item.conditionCheck().tableName();
      touches(add(out, "dynamodb:ConditionCheckItem", table(t), t, null),
          item.conditionCheck().key(), item.conditionCheck());
    }
  }

  private void statement(Needed out, String statement, List<AttributeValue> parameters) {
    StatementTarget target = statement == null ? null : StatementTarget.of(statement);
    if (target != null) {
      Context c = add(out, "dynamodb:" + target.action(), index(target.table(), target.index()),
          target.table(), target.index());
      c.statements.add(new ParameterizedStatement(statement, parameters, null));
      c.attributes(() -> {
        List<String> names = StatementTarget.attributes(statement, parameters);
        return names == null ? RequestContext.UNKNOWN : names;
      });
    }
  }

  /** The context of the permission, added if new; null for no resource (nothing needed). */
  private Context add(Needed out, String action, String resource, String table, String index) {
    if (resource == null) {
      return null;
    }
    return out.contexts.computeIfAbsent(new Permission(action, resource),
        p -> new Context(table, index));
  }

  private record Permission(String action, String resource) {}

  /** The permissions of one request, each once, in the order first needed. */
  private static final class Needed {
    final Map<Permission, Context> contexts = new LinkedHashMap<>();

    List<AccessRequest> list() {
      List<AccessRequest> out = new ArrayList<>(contexts.size());
      contexts.forEach((p, c) -> out.add(new AccessRequest(p.action(), p.resource(), c)));
      return out;
    }
  }

  /** The condition keys' values of one permission; the leading keys found only when asked. */
  private final class Context implements RequestContext {
    final String table;
    final String index;
    final List<Map<String, AttributeValue>> keys = new ArrayList<>();
    QueryRequest query;
    boolean noKeys;
    /** The PartiQL statements this permission covers; their keys are read from their text. */
    final List<ParameterizedStatement> statements = new ArrayList<>();
    String select;
    String returnValues;
    private List<String> leadingKeys;
    private final List<Supplier<List<String>>> attributeSources = new ArrayList<>();
    private List<String> attributes;

    Context(String table, String index) {
      this.table = table;
      this.index = index;
    }

    @Override
    public List<String> values(String key) {
      switch (key) {
        case "dynamodb:select":
          return select == null ? null : List.of(select);
        case "dynamodb:returnvalues":
          return returnValues == null ? null : List.of(returnValues);
        case "dynamodb:leadingkeys":
          if (leadingKeys == null) {
            leadingKeys = leadingKeys();
          }
          return leadingKeys;
        case "dynamodb:attributes":
          if (attributes == null) {
            attributes = attributes();
          }
          return attributes;
        default:
          return null;
      }
    }

    /** Adds the attribute names of one read or write this permission covers, found if asked. */
    void attributes(Supplier<List<String>> source) {
      attributeSources.add(source);
    }

    /** The names every read and write of this permission touches, null for none, or UNKNOWN. */
    private List<String> attributes() {
      if (attributeSources.isEmpty()) {
        return null;
      }
      Set<String> names = new TreeSet<>();
      for (Supplier<List<String>> source : attributeSources) {
        List<String> some = source.get();
        if (some == UNKNOWN) {
          return UNKNOWN;
        }
        names.addAll(some);
      }
      return List.copyOf(names);
    }

    private List<String> leadingKeys() {
      if (noKeys || table == null || (keys.isEmpty() && query == null && statements.isEmpty())) {
        return List.of();
      }
      String partitionKey = schemas.partitionKey(table, index);
      if (partitionKey == null) {
        return UNKNOWN;
      }
      List<String> out = new ArrayList<>();
      for (ParameterizedStatement s : statements) {
        List<AttributeValue> values =
            StatementTarget.leadingKeys(s.statement(), s.parameters(), partitionKey);
        if (values == null) {
          return UNKNOWN;
        }
        values.forEach(v -> out.add(AttributeValue.keyText(v)));
      }
      if (query != null) {
        AttributeValue value = LeadingKeys.ofQuery(query, partitionKey);
        if (value == null) {
          return UNKNOWN;
        }
        out.add(AttributeValue.keyText(value));
      }
      for (Map<String, AttributeValue> k : keys) {
        AttributeValue value = k == null ? null : k.get(partitionKey);
        if (value == null) {
          return UNKNOWN; // the request will fail its own validation
        }
        out.add(AttributeValue.keyText(value));
      }
      return out;
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
