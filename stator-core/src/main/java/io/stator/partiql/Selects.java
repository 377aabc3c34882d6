package io.stator.partiql;

import io.stator.api.AttributeDefinition;
import io.stator.api.Database;
import io.stator.api.DynamoDbException;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteStatementResponse;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.KeySchemaElement;
import io.stator.api.LocalSecondaryIndexDescription;
import io.stator.api.Projection;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.TableDescription;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A SELECT, run as DynamoDB plans it: equalities on the table's full key and nothing else are a
 * GetItem; a WHERE clause whose every alternative names a partition by its key (of the table, or
 * of the index named in FROM) and a range of its sort keys is one Query per such read ({@link
 * KeyReads}, {@link PartitionQueries}); anything else is a Scan with the whole WHERE clause as
 * its filter.
 */
final class Selects {
  private static final Set<String> SORT_KEY_OPERATORS = Set.of("=", "<", "<=", ">", ">=");

  private Selects() {}

  static ExecuteStatementResponse run(
      Database database,
      ExecuteStatementRequest r,
      Statement.Select select,
      TableDescription table,
      ExpressionText text,
      boolean pointReadOnly) {
    List<String> tableKey = Statements.keyNames(table.keySchema());
    List<String> key = select.index() == null ? tableKey : indexKey(table, select.index());
    if (select.index() != null) {
      // ExecuteStatement words these two as Query and Scan do not (recorded from DynamoDB)
      if (key == null) {
        throw DynamoDbException.validation("The table does not have the specified index");
      }
      if (Boolean.TRUE.equals(r.consistentRead()) && isGlobal(table, select.index())) {
        throw DynamoDbException.validation(
            "Strongly consistent read is not supported on Global Secondary Indexes");
      }
    }
    if (select.index() == null && r.nextToken() == null && select.where() != null) {
      KeyedWhere where =
          KeyedWhere.ofOrNull(select.where(), tableKey, text, KeyedWhere.Use.POINT_READ);
      if (where != null && where.onlyKey()) {
        OrderBy.check(select, key, 1);
        return getItem(database, r, select, where.key(), text);
      }
    }
    KeyReads reads = null;
    if (key != null) {
      reads = KeyReads.plan(select.where(), key, keyTypes(table, key), text,
          OrderBy.descending(select, key.get(0)),
          key.size() > 1 && OrderBy.descending(select, key.get(1)));
      OrderBy.check(select, key, reads == null ? 0 : reads.partitions);
      if (reads != null && select.index() != null) {
        refuseUnprojectedFilters(table, select.index(), tableKey, key, reads);
      }
    }
    if (pointReadOnly) {
      throw DynamoDbException.validation(
          "Select statements within BatchExecuteStatement must specify the primary key in the"
              + " where clause.");
    }
    if (reads == null) {
      Map<String, AttributeValue> start = NextTokens.decode(r.nextToken());
      String filter = select.where() == null ? null : text.condition(select.where());
      ScanResponse scanned =
          database.scan(
              new ScanRequest(
                  select.table(), select.index(), null, r.limit(), r.consistentRead(), start,
                  null, null, filter, projection(select, text), text.names(), text.values(),
                  r.returnConsumedCapacity(), null, null, null));
      return page(scanned.items(), scanned.lastEvaluatedKey(), scanned.consumedCapacity());
    }
    return new PartitionQueries(database, r, select, key).run(reads.reads, text);
  }

  /**
   * Refuses reads of a GSI whose filters name attributes the index does not project, which
   * DynamoDB refuses for a SELECT (not for a Query): of the reads, in their order, the last
   * refused names its attributes, as a set in Java's hash order, as recorded from DynamoDB
   * ({@code [a, b]} for {@code b = 1 AND (a = 2 OR projected = 3)}).
   */
  private static void refuseUnprojectedFilters(
      TableDescription table, String index, List<String> tableKey, List<String> indexKey,
      KeyReads reads) {
    Projection projection = table.globalSecondaryIndexes() == null ? null
        : table.globalSecondaryIndexes().stream()
            .filter(g -> g.indexName().equals(index))
            .map(GlobalSecondaryIndexDescription::projection)
            .findFirst().orElse(null);
    if (projection == null || "ALL".equals(projection.projectionType())) {
      return;
    }
    Set<String> projected = new HashSet<>(tableKey);
    projected.addAll(indexKey);
    if (projection.nonKeyAttributes() != null) {
      projected.addAll(projection.nonKeyAttributes());
    }
    Set<String> refused = null;
    for (KeyReads.Read read : reads.reads) {
      Set<String> unprojected = new HashSet<>();
      for (String name : KeyReads.attributeNames(read.filter())) {
        if (!projected.contains(name)) {
          unprojected.add(name);
        }
      }
      refused = unprojected.isEmpty() ? refused : unprojected;
    }
    if (refused != null) {
      throw DynamoDbException.validation("One or more parameter values were invalid: Secondary"
          + " index " + index + " does not project one or more filter attributes: " + refused);
    }
  }

  /** The types of the key's attributes, from the table's attribute definitions. */
  static Map<String, String> keyTypes(TableDescription table, List<String> key) {
    Map<String, String> types = new HashMap<>();
    for (AttributeDefinition definition : table.attributeDefinitions()) {
      if (key.contains(definition.attributeName())) {
        types.put(definition.attributeName(), definition.attributeType());
      }
    }
    return types;
  }

  private static ExecuteStatementResponse getItem(
      Database database,
      ExecuteStatementRequest r,
      Statement.Select select,
      Map<String, AttributeValue> key,
      ExpressionText text) {
    String projection = projection(select, text);
    GetItemResponse got =
        database.getItem(
            new GetItemRequest(
                select.table(), key, r.consistentRead(), projection, text.names(), null,
                r.returnConsumedCapacity()));
    List<Map<String, AttributeValue>> items =
        got.item() == null ? List.of() : List.of(got.item());
    return new ExecuteStatementResponse(items, null, got.consumedCapacity(), null);
  }

  static ExecuteStatementResponse page(
      List<Map<String, AttributeValue>> items,
      Map<String, AttributeValue> lastEvaluatedKey,
      io.stator.api.ConsumedCapacity capacity) {
    return new ExecuteStatementResponse(
        items, NextTokens.encode(lastEvaluatedKey), capacity, lastEvaluatedKey);
  }

  /**
   * The ProjectionExpression of a SELECT's reads: its paths, or none where the answer is read
   * whole and its columns taken from it ({@link Columns}), since a projection would move a list
   * element to another index.
   */
  static String projection(Statement.Select select, ExpressionText text) {
    if (select.projection() == null || Columns.reshapes(select)) {
      return null;
    }
    List<String> paths = new ArrayList<>();
    select.projection().forEach(p -> paths.add(text.path(p)));
    return String.join(", ", paths);
  }

  private static boolean isGlobal(TableDescription table, String index) {
    return table.globalSecondaryIndexes() != null
        && table.globalSecondaryIndexes().stream().anyMatch(g -> g.indexName().equals(index));
  }

  /** The index's key, partition key first; null for an index the table lacks. */
  private static List<String> indexKey(TableDescription table, String index) {
    if (table.globalSecondaryIndexes() != null) {
      for (GlobalSecondaryIndexDescription gsi : table.globalSecondaryIndexes()) {
        if (gsi.indexName().equals(index)) {
          return Statements.keyNames(gsi.keySchema());
        }
      }
    }
    if (table.localSecondaryIndexes() != null) {
      for (LocalSecondaryIndexDescription lsi : table.localSecondaryIndexes()) {
        if (lsi.indexName().equals(index)) {
          return Statements.keyNames(lsi.keySchema());
        }
      }
    }
    return null;
  }

  /**
   * {@code 5 < sk} as {@code sk > 5}: a key condition names the key first, and a sort-key
   * condition left in a Query's filter would be refused.
   */
  static Term attributeFirst(Term term) {
    if (term instanceof Term.Comparison c
        && KeyedWhere.isValue(c.left())
        && c.right() instanceof Term.PathTerm) {
      String flipped =
          switch (c.operator()) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> c.operator();
          };
      return new Term.Comparison(flipped, c.right(), c.left());
    }
    return term;
  }

  static boolean isSortKeyCondition(Term term, String attribute) {
    if (term instanceof Term.Comparison c) {
      return SORT_KEY_OPERATORS.contains(c.operator())
          && KeyedWhere.isAttribute(c.left(), attribute)
          && KeyedWhere.isValue(c.right());
    }
    if (term instanceof Term.Between b) {
      return KeyedWhere.isAttribute(b.operand(), attribute)
          && KeyedWhere.isValue(b.low())
          && KeyedWhere.isValue(b.high());
    }
    return term instanceof Term.Call call
        && call.function().equals("begins_with")
        && call.arguments().size() == 2
        && KeyedWhere.isAttribute(call.arguments().get(0), attribute)
        && KeyedWhere.isValue(call.arguments().get(1));
  }
}
