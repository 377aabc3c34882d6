package io.stator.partiql;

import io.stator.api.ConsumedCapacity;
import io.stator.api.Database;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteStatementResponse;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.capacity.Consumption;
import io.stator.item.ItemSize;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A SELECT that names its partitions by their key, run as the reads {@link KeyReads} plans: one
 * Query each, one after the other, for one partition key value and one range of sort keys
 * (ascending, or descending where ORDER BY says so), with the read's own filter and the SELECT's
 * projection. The request's Limit counts the items evaluated across them, as a Query's does, a
 * page takes no further read once its items reach 1 MB, and NextToken says which read to resume
 * and after which key ({@link NextTokens.Position}).
 */
final class PartitionQueries {
  /**
   * A page takes no further read once the items it returns reach this size, so that a response
   * stays near a Query's 1 MB rather than one Query's page per read. (A Query counts the items it
   * reads, before its filter and projection; those it returns are what the response holds.)
   */
  static final long PAGE_BYTES = 1024 * 1024;

  private final Database database;
  private final ExecuteStatementRequest request;
  private final Statement.Select select;
  private final List<String> key;

  PartitionQueries(
      Database database, ExecuteStatementRequest request, Statement.Select select,
      List<String> key) {
    this.database = database;
    this.request = request;
    this.select = select;
    this.key = key;
  }

  ExecuteStatementResponse run(List<KeyReads.Read> reads, ExpressionText text) {
    NextTokens.Position position = NextTokens.position(request.nextToken());
    if (position.partition() >= Math.max(reads.size(), 1)) {
      throw NextTokens.invalid();
    }
    Boolean forward = key.size() > 1 ? !OrderBy.descending(select, key.get(1)) : null;
    Integer remaining = request.limit();
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    ConsumedCapacity consumed = null;
    Map<String, AttributeValue> start = position.key();
    long bytes = 0;
    for (int i = position.partition(); i < reads.size(); i++) {
      KeyReads.Read read = reads.get(i);
      boolean readSortKey = read.sort().checksItems() && !projectsSortKey();
      QueryResponse queried = query(read, start, remaining, forward, readSortKey, text.fresh());
      List<Map<String, AttributeValue>> kept =
          read.sort().keep(queried.items(), key.size() > 1 ? key.get(1) : null, readSortKey);
      items.addAll(kept);
      for (Map<String, AttributeValue> item : kept) {
        bytes += ItemSize.of(item);
      }
      consumed = Consumption.sum(consumed, queried.consumedCapacity());
      if (queried.lastEvaluatedKey() != null) {
        // The Limit or the page's size stopped this read's Query
        return new ExecuteStatementResponse(
            items, NextTokens.encode(new NextTokens.Position(i, queried.lastEvaluatedKey())),
            consumed, queried.lastEvaluatedKey());
      }
      if (remaining != null) {
        remaining -= queried.scannedCount();
      }
      boolean full = (remaining != null && remaining <= 0) || bytes >= PAGE_BYTES;
      if (full && i + 1 < reads.size()) {
        return new ExecuteStatementResponse(
            items, NextTokens.encode(new NextTokens.Position(i + 1, null)), consumed, null);
      }
      start = null;
    }
    return new ExecuteStatementResponse(items, null, consumed, null);
  }

  private QueryResponse query(
      KeyReads.Read read, Map<String, AttributeValue> start, Integer limit,
      Boolean forward, boolean readSortKey, ExpressionText text) {
    Term partitionKey = new Term.PathTerm(List.of(key.get(0)));
    String keyCondition = text.condition(
        new Term.Comparison("=", partitionKey, new Term.Literal(read.partition())));
    if (read.sort().keyCondition != null) {
      keyCondition += " AND " + text.condition(read.sort().keyCondition);
    }
    String filterText = read.filter() == null ? null : text.condition(read.filter());
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

  /** True when every item read holds the sort key: it is read whole, or its projection names it. */
  private boolean projectsSortKey() {
    return select.projection() == null
        || Columns.reshapes(select)
        || select.projection().stream().anyMatch(p -> KeyedWhere.isAttribute(p, key.get(1)));
  }
}
