package io.stator.partiql;

import io.stator.api.ConsumedCapacity;
import io.stator.api.Database;
import io.stator.api.DynamoDbException;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteStatementResponse;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.capacity.Consumption;
import io.stator.item.ItemSize;
import io.stator.key.KeyCodec;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A SELECT that names its partitions by their key: one Query per partition key value, read one
 * after the other in the order of the values (ascending, or descending where ORDER BY says so
 * for the partition key), each with the same sort-key condition, filter and projection. The
 * request's Limit counts the items evaluated across them, as a Query's does, a page takes no
 * further partition once its items reach 1 MB, and NextToken says which partition to resume and
 * after which key ({@link NextTokens.Position}).
 */
final class PartitionQueries {
  /** DynamoDB's bound on the partition key values of one SELECT. */
  static final int MAX_PARTITIONS = 50;

  /**
   * A page takes no further partition once the items it returns reach this size, so that a
   * response stays near a Query's 1 MB rather than one Query's page per partition. (A Query
   * counts the items it reads, before its filter and projection; those it returns are what
   * the response holds.)
   */
  static final long PAGE_BYTES = 1024 * 1024;

  private final Database database;
  private final ExecuteStatementRequest request;
  private final Statement.Select select;
  private final List<String> key;
  private final SortRange sort;
  private final Term filter;

  PartitionQueries(
      Database database, ExecuteStatementRequest request, Statement.Select select,
      List<String> key, SortRange sort, Term filter) {
    this.database = database;
    this.request = request;
    this.select = select;
    this.key = key;
    this.sort = sort;
    this.filter = filter;
  }

  ExecuteStatementResponse run(List<Term> values, ExpressionText text) {
    List<AttributeValue> partitions = partitions(values, text);
    NextTokens.Position position = NextTokens.position(request.nextToken());
    if (position.partition() >= partitions.size()) {
      throw NextTokens.invalid();
    }
    Boolean forward = key.size() > 1 ? !OrderBy.descending(select, key.get(1)) : null;
    Integer remaining = request.limit();
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    ConsumedCapacity consumed = null;
    Map<String, AttributeValue> start = position.key();
    long bytes = 0;
    for (int i = position.partition(); i < partitions.size(); i++) {
      boolean readSortKey = sort.excludesEnds() && !projectsSortKey();
      QueryResponse queried =
          query(partitions.get(i), start, remaining, forward, readSortKey, text.fresh());
      List<Map<String, AttributeValue>> kept =
          sort.keep(queried.items(), key.get(1), readSortKey);
      items.addAll(kept);
      for (Map<String, AttributeValue> item : kept) {
        bytes += ItemSize.of(item);
      }
      consumed = Consumption.sum(consumed, queried.consumedCapacity());
      if (queried.lastEvaluatedKey() != null) {
        // The Limit or the page's size stopped this partition's Query
        return new ExecuteStatementResponse(
            items, NextTokens.encode(new NextTokens.Position(i, queried.lastEvaluatedKey())),
            consumed, queried.lastEvaluatedKey());
      }
      if (remaining != null) {
        remaining -= queried.scannedCount();
      }
      boolean full = (remaining != null && remaining <= 0) || bytes >= PAGE_BYTES;
      if (full && i + 1 < partitions.size()) {
        return new ExecuteStatementResponse(
            items, NextTokens.encode(new NextTokens.Position(i + 1, null)), consumed, null);
      }
      start = null;
    }
    return new ExecuteStatementResponse(items, null, consumed, null);
  }

  private QueryResponse query(
      AttributeValue partition, Map<String, AttributeValue> start, Integer limit,
      Boolean forward, boolean readSortKey, ExpressionText text) {
    Term partitionKey = new Term.PathTerm(List.of(key.get(0)));
    String keyCondition =
        text.condition(new Term.Comparison("=", partitionKey, new Term.Literal(partition)));
    if (sort.keyCondition != null) {
      keyCondition += " AND " + text.condition(sort.keyCondition);
    }
    String filterText = filter == null ? null : text.condition(filter);
    String projection = Selects.projection(select, text);
    if (readSortKey) {
      projection += ", " + text.path(new Term.PathTerm(List.of(key.get(1))));
    }
    return database.query(
        new QueryRequest(
            select.table(), select.index(), null, limit, request.consistentRead(), forward,
            start, keyCondition, filterText, projection, text.names(), text.values(),
            request.returnConsumedCapacity(), null, null, null, null));
  }

  /** True when every item returned holds the sort key: no projection, or one that names it. */
  private boolean projectsSortKey() {
    return select.projection() == null
        || select.projection().stream().anyMatch(p -> KeyedWhere.isAttribute(p, key.get(1)));
  }

  /** The distinct partition key values, in the order they are read. */
  private List<AttributeValue> partitions(List<Term> values, ExpressionText text) {
    TreeMap<byte[], AttributeValue> byKey = new TreeMap<>(Arrays::compareUnsigned);
    for (Term value : values) {
      AttributeValue bound = text.bind(value);
      byKey.putIfAbsent(order(bound), bound);
    }
    if (byKey.size() > MAX_PARTITIONS) {
      throw DynamoDbException.validation("A SELECT may name at most " + MAX_PARTITIONS
          + " values of the partition key " + key.get(0) + "; it names " + byKey.size());
    }
    return new ArrayList<>(OrderBy.descending(select, key.get(0))
        ? byKey.descendingMap().values() : byKey.values());
  }

  /**
   * A key value's type and bytes in the storage's key order (distinct for distinct values); only
   * its type for a value no key can have, whose Query then refuses it as any Query would.
   */
  private static byte[] order(AttributeValue value) {
    byte[] type = value.type().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] bytes;
    try {
      bytes = KeyCodec.sort(value);
    } catch (RuntimeException notAKeyValue) {
      bytes = new byte[0];
    }
    byte[] typed = Arrays.copyOf(type, type.length + 1 + bytes.length);
    System.arraycopy(bytes, 0, typed, type.length + 1, bytes.length);
    return typed;
  }
}
