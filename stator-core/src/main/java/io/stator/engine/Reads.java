package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.CapacityModel;
import io.stator.capacity.Consumption;
import io.stator.capacity.ReadConsistency;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Operand;
import io.stator.expression.Path;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.key.KeyCodec;
import io.stator.index.IndexKeys;
import io.stator.schema.Constraints;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Bound;
import io.stator.storage.ScanPage;
import io.stator.storage.Segment;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Query and Scan. Both read a page: items in key order until {@code Limit} items were read or
 * 1 MB of item data (by {@link ItemSize}) was read, whichever comes first; then
 * LastEvaluatedKey names the last item read, as DynamoDB does (also when the page happens to end
 * exactly at the last item). A FilterExpression is applied after the read: ScannedCount counts
 * the items read, Count the items that matched.
 */
final class Reads {
  /** DynamoDB's page limit: 1 MB of data read. */
  static final long PAGE_BYTES = 1024 * 1024;

  private static final int BATCH = 128;
  private static final String[] SELECT = {
    "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT"
  };

  private final Storage storage;
  private final Tables tables;
  private final CapacityModel capacity;

  Reads(Storage storage, Tables tables, CapacityModel capacity) {
    this.storage = storage;
    this.tables = tables;
    this.capacity = capacity;
  }

  QueryResponse query(QueryRequest r) {
    Constraints c = RequestConstraints.tableName(r.tableName());
    c.name("indexName", r.indexName());
    c.oneOf("select", r.select(), SELECT);
    c.atLeast("limit", r.limit(), 1);
    RequestConstraints.attributesToGetLength(c, r.attributesToGet());
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(),
        Consumption.RETURN_CONSUMED_CAPACITY);
    c.oneOf("conditionalOperator", r.conditionalOperator(), LegacyConditions.CONDITIONAL_OPERATORS);
    LegacyConditions.conditionConstraints(c, "keyConditions", r.keyConditions());
    LegacyConditions.conditionConstraints(c, "queryFilter", r.queryFilter());
    c.check();
    RequestConstraints.expressionParameters(
        RequestConstraints.params(
            "ProjectionExpression", r.projectionExpression(),
            "FilterExpression", r.filterExpression(),
            "KeyConditionExpression", r.keyConditionExpression()),
        RequestConstraints.params(
            "AttributesToGet", r.attributesToGet(),
            "QueryFilter", r.queryFilter(),
            "ConditionalOperator", r.conditionalOperator(),
            "KeyConditions", r.keyConditions()),
        r.expressionAttributeNames(),
        r.expressionAttributeValues());
    LegacyConditions.checkConditions(r.queryFilter());
    if (r.keyConditions() == null && r.keyConditionExpression() == null) {
      throw DynamoDbException.validation(
          "Either the KeyConditions or KeyConditionExpression parameter must be specified in the"
              + " request.");
    }
    checkSelect(r.select(), r.projectionExpression(), r.attributesToGet(), r.indexName());
    ExpressionContext context =
        new ExpressionContext(r.expressionAttributeNames(), r.expressionAttributeValues());
    ConditionExpression keyCondition =
        r.keyConditionExpression() == null
            ? null
            : Expressions.parseCondition(
                r.keyConditionExpression(), context, "KeyConditionExpression");
    ConditionExpression filter =
        r.filterExpression() == null
            ? LegacyConditions.filter(r.queryFilter(), r.conditionalOperator())
            : Expressions.parseCondition(r.filterExpression(), context, "FilterExpression");
    List<Path> projection =
        RequestConstraints.projection(r.projectionExpression(), r.attributesToGet(), context);
    context.checkAllUsed();
    if (keyCondition == null) {
      LegacyConditions.checkConditions(r.keyConditions());
      if (r.keyConditions().isEmpty()) {
        throw DynamoDbException.validation("Conditions can be of length 1 or 2 only");
      }
    }

    TableDefinition table = tables.forItems(r.tableName());
    IndexDefinition index = index(table, r.indexName(), r.consistentRead());
    if (keyCondition == null) {
      // A multi-attribute GSI key takes one condition per key attribute (up to 8).
      int most = index == null ? 2 : Math.max(2, index.keyAttributes().size());
      if (r.keyConditions().size() > most) {
        throw DynamoDbException.validation(
            most == 2
                ? "Conditions can be of length 1 or 2 only"
                : "Conditions can be of length 1 to " + most + " only");
      }
    }
    Map<String, KeyRange.Term> terms =
        keyCondition != null
            ? KeyRange.terms(keyCondition)
            : KeyRange.terms(r.keyConditions());
    KeyRange range = index == null ? KeyRange.fromTerms(terms, table.hashKey(), table.rangeKey())
        : null;
    IndexKeyRange indexRange = index == null ? null : IndexKeyRange.of(terms, index);
    if (filter != null) {
      String parameter = r.filterExpression() != null ? "Filter Expression" : "QueryFilter";
      for (Path path : paths(filter)) {
        boolean isKey = index == null ? table.isKey(path.attribute()) : index.isKey(path.attribute());
        if (isKey) {
          throw DynamoDbException.validation(
              parameter + " can only contain non-primary key attributes: Primary key"
                  + " attribute: " + path.attribute());
        }
      }
    }

    Source source = source(table, index, r.select(), projection, filter);
    boolean forward = r.scanIndexForward() == null || r.scanIndexForward();
    Bound lower = index == null ? range.lower() : indexRange.lower();
    Bound upper = index == null ? range.upper() : indexRange.upper();
    byte[] partition =
        index == null ? KeyCodec.partition(range.partition()) : indexRange.partitionBytes();
    boolean exhausted = false;
    if (r.exclusiveStartKey() != null && index != null) {
      StorageKey start = IndexKeys.startKey(table, index, r.exclusiveStartKey());
      boolean samePartition = Arrays.equals(start.partition(), partition);
      if (indexRange.hasSortCondition()) {
        if (!indexRange.containsSort(start.sort())) {
          throw DynamoDbException.validation(
              "The provided starting key does not match the range key predicate");
        }
        if (!samePartition) {
          throw DynamoDbException.validation(
              "The query can return at most one row and cannot be restarted");
        }
      } else if (!samePartition) {
        throw DynamoDbException.validation(
            "The provided starting key is outside query boundaries based on provided conditions");
      }
      if (forward) {
        lower = Bound.exclusive(start.sort());
      } else {
        upper = Bound.exclusive(start.sort());
      }
    } else if (r.exclusiveStartKey() != null) {
      Map<String, AttributeValue> start = startKey(table, r.exclusiveStartKey());
      AttributeValue startHash = start.get(table.hashKey().name());
      if (table.hasRangeKey() && range.sortOperator() != null) {
        if (!range.matchesSort(start.get(table.rangeKey().name()))) {
          throw DynamoDbException.validation(
              "The provided starting key does not match the range key predicate");
        }
        if (!startHash.equals(range.partition())) {
          throw DynamoDbException.validation(
              "The query can return at most one row and cannot be restarted");
        }
      } else if (!startHash.equals(range.partition())) {
        throw DynamoDbException.validation(
            "The provided starting key is outside query boundaries based on provided conditions");
      }
      if (table.hasRangeKey()) {
        Bound after = Bound.exclusive(KeyCodec.sort(start.get(table.rangeKey().name())));
        if (forward) {
          lower = after;
        } else {
          upper = after;
        }
      } else {
        exhausted = true; // a simple-key partition holds one item: nothing follows it
      }
    }

    Page page = new Page(r.limit(), filter, projection, "COUNT".equals(r.select()), source);
    while (!exhausted) {
      int want = page.batchSize();
      List<StoredRecord> batch;
      try {
        batch = storage.query(source.space(), partition, lower, upper, forward, want);
      } catch (StorageException e) {
        throw tables.failure(table, e);
      }
      for (StoredRecord record : batch) {
        if (page.add(record)) {
          break;
        }
      }
      if (page.full() || batch.size() < want) {
        break;
      }
      Bound after = Bound.exclusive(batch.get(batch.size() - 1).key().sort());
      if (forward) {
        lower = after;
      } else {
        upper = after;
      }
    }
    // Query rounds the total of the items read once; a filter does not reduce it.
    double units = page.units(ReadConsistency.of(r.consistentRead()));
    capacity.read(table, index, partition, units);
    return new QueryResponse(
        page.items(), page.count, page.scanned, page.lastEvaluatedKey(),
        consumption(table, index, units).consumedCapacity(r.returnConsumedCapacity()));
  }

  ScanResponse scan(ScanRequest r) {
    Constraints c = RequestConstraints.tableName(r.tableName());
    c.name("indexName", r.indexName());
    c.oneOf("select", r.select(), SELECT);
    c.atLeast("limit", r.limit(), 1);
    c.atLeast("segment", r.segment(), 0).atMost("segment", r.segment(), 999_999);
    c.atLeast("totalSegments", r.totalSegments(), 1)
        .atMost("totalSegments", r.totalSegments(), 1_000_000);
    RequestConstraints.attributesToGetLength(c, r.attributesToGet());
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(),
        Consumption.RETURN_CONSUMED_CAPACITY);
    c.oneOf("conditionalOperator", r.conditionalOperator(), LegacyConditions.CONDITIONAL_OPERATORS);
    LegacyConditions.conditionConstraints(c, "scanFilter", r.scanFilter());
    c.check();
    RequestConstraints.expressionParameters(
        RequestConstraints.params(
            "ProjectionExpression", r.projectionExpression(),
            "FilterExpression", r.filterExpression()),
        RequestConstraints.params(
            "AttributesToGet", r.attributesToGet(),
            "ScanFilter", r.scanFilter(),
            "ConditionalOperator", r.conditionalOperator()),
        r.expressionAttributeNames(),
        r.expressionAttributeValues());
    LegacyConditions.checkConditions(r.scanFilter());
    if (r.segment() != null && r.totalSegments() == null) {
      throw DynamoDbException.validation(
          "The TotalSegments parameter is required but was not present in the request when"
              + " Segment parameter is present");
    }
    if (r.totalSegments() != null) {
      if (r.segment() == null) {
        throw DynamoDbException.validation(
            "The Segment parameter is required but was not present in the request when"
                + " parameter TotalSegments is present");
      }
      if (r.segment() >= r.totalSegments()) {
        throw DynamoDbException.validation(
            "The Segment parameter is zero-based and must be less than parameter TotalSegments:"
                + " Segment: " + r.segment() + " is not less than TotalSegments: "
                + r.totalSegments());
      }
    }
    checkSelect(r.select(), r.projectionExpression(), r.attributesToGet(), r.indexName());
    ExpressionContext context =
        new ExpressionContext(r.expressionAttributeNames(), r.expressionAttributeValues());
    ConditionExpression filter =
        r.filterExpression() == null
            ? LegacyConditions.filter(r.scanFilter(), r.conditionalOperator())
            : Expressions.parseCondition(r.filterExpression(), context, "FilterExpression");
    List<Path> projection =
        RequestConstraints.projection(r.projectionExpression(), r.attributesToGet(), context);
    context.checkAllUsed();

    TableDefinition table = tables.forItems(r.tableName());
    IndexDefinition index = index(table, r.indexName(), r.consistentRead());
    Source source = source(table, index, r.select(), projection, filter);
    // The storage splits a parallel Scan: it knows how the space is spread.
    Segment segment = r.totalSegments() == null
        ? new Segment(null, null)
        : storage.segment(source.space(), r.segment(), r.totalSegments());
    byte[] from = segment.fromPartition();
    byte[] to = segment.toPartition();
    StorageKey after = null;
    if (r.exclusiveStartKey() != null) {
      after =
          index == null
              ? ItemKeys.storageKey(table, startKey(table, r.exclusiveStartKey()))
              : IndexKeys.startKey(table, index, r.exclusiveStartKey());
      if (!segment.contains(after)) {
        throw DynamoDbException.validation(
            "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use"
                + " ExclusiveStartKey with correct Segment. TotalSegments: " + r.totalSegments()
                + " Segment: " + r.segment());
      }
    }
    Page page = new Page(r.limit(), filter, projection, "COUNT".equals(r.select()), source);
    while (true) {
      ScanPage batch;
      try {
        batch = storage.scanPage(source.space(), from, to, after, page.batchSize());
      } catch (StorageException e) {
        throw tables.failure(table, e);
      }
      for (StoredRecord record : batch.records()) {
        if (page.add(record)) {
          break;
        }
      }
      // The storage says where the range ends: a short batch may be followed by more.
      if (page.full() || !batch.more()) {
        break;
      }
      if (!batch.records().isEmpty()) {
        after = batch.records().get(batch.records().size() - 1).key();
      }
    }
    // Like Query: the page's total rounded once, charged to the partition where it starts.
    double units = page.units(ReadConsistency.of(r.consistentRead()));
    StorageKey start = page.first != null ? page.first : after;
    long hash = start != null ? KeyCodec.hashOf(start.partition())
        : from != null ? KeyCodec.hashOf(from) : 0;
    capacity.readAt(table, index, hash, units);
    return new ScanResponse(
        page.items(), page.count, page.scanned, page.lastEvaluatedKey(),
        consumption(table, index, units).consumedCapacity(r.returnConsumedCapacity()));
  }

  /** One page of results being gathered. */
  private static final class Page {
    private final int limit;
    private final ConditionExpression filter;
    private final List<Path> projection;
    private final boolean countOnly;
    private final Source source;
    private final List<Map<String, AttributeValue>> items = new ArrayList<>();
    private int count;
    private int scanned;
    private long bytes;
    private StorageKey last;
    private Map<String, AttributeValue> lastEntry;
    private StorageKey first;
    private final List<Long> fetched = new ArrayList<>();

    Page(Integer limit, ConditionExpression filter, List<Path> projection, boolean countOnly,
        Source source) {
      this.limit = limit == null ? Integer.MAX_VALUE : limit;
      this.filter = filter;
      this.projection = projection;
      this.countOnly = countOnly;
      this.source = source;
    }

    int batchSize() {
      return Math.min(BATCH, limit - scanned);
    }

    /** Adds a record read; true when the page is full. */
    boolean add(StoredRecord record) {
      Map<String, AttributeValue> entry = ItemCodec.decode(record.value());
      Map<String, AttributeValue> item = source.item(entry);
      if (item != entry) {
        fetched.add(ItemSize.of(item));
      }
      if (first == null) {
        first = record.key();
      }
      scanned++;
      bytes += ItemSize.of(entry);
      if (filter == null || Expressions.evaluate(filter, item)) {
        count++;
        if (!countOnly) {
          items.add(RequestConstraints.project(item, projection));
        }
      }
      if (scanned >= limit || bytes >= PAGE_BYTES) {
        last = record.key();
        lastEntry = entry;
        return true;
      }
      return false;
    }

    boolean full() {
      return last != null;
    }

    /**
     * The read units of the page: its entries' total rounded once, plus, on a local secondary
     * index, each item fetched from the table for attributes the index does not project,
     * rounded on its own (DynamoDB charges such fetches as extra reads of whole items).
     */
    double units(ReadConsistency consistency) {
      double units = CapacityCalculator.read(bytes, consistency);
      for (long size : fetched) {
        units += CapacityCalculator.read(size, consistency);
      }
      return units;
    }

    List<Map<String, AttributeValue>> items() {
      return countOnly ? null : List.copyOf(items);
    }

    Map<String, AttributeValue> lastEvaluatedKey() {
      return last == null ? null : source.lastEvaluatedKey(last, lastEntry);
    }
  }

  /**
   * What a Query or Scan reads: the table's items, or an index's entries. On an LSI, attributes
   * the index does not project are fetched from the item, as DynamoDB does (at extra cost); a GSI
   * returns only what it projects.
   */
  private final class Source {
    private final TableDefinition table;
    private final IndexDefinition index;
    private final boolean fetch;

    Source(TableDefinition table, IndexDefinition index, boolean fetch) {
      this.table = table;
      this.index = index;
      this.fetch = fetch;
    }

    String space() {
      return index == null ? table.space() : index.space();
    }

    Map<String, AttributeValue> item(Map<String, AttributeValue> entry) {
      if (!fetch) {
        return entry;
      }
      return storage
          .get(table.space(), ItemKeys.storageKey(table, entry))
          .map(rec -> ItemCodec.decode(rec.value()))
          .orElse(entry);
    }

    Map<String, AttributeValue> lastEvaluatedKey(
        StorageKey key, Map<String, AttributeValue> entry) {
      return index == null
          ? ItemKeys.keyOf(table, key)
          : IndexKeys.lastEvaluatedKey(table, index, entry);
    }
  }

  /**
   * The source of a read, with DynamoDB's rules for Select on an index: ALL_ATTRIBUTES needs the
   * whole item, which a GSI has only with projection ALL (an LSI fetches it).
   */
  private Source source(
      TableDefinition table, IndexDefinition index, String select, List<Path> projection,
      ConditionExpression filter) {
    if (index == null || IndexDefinition.ALL.equals(index.projectionType())) {
      return new Source(table, index, false);
    }
    boolean wantsMore = "ALL_ATTRIBUTES".equals(select);
    if (wantsMore && index.global()) {
      throw DynamoDbException.validation(
          "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not"
              + " supported for global secondary index " + index.name()
              + " because its projection type is not ALL");
    }
    if (!index.global()) {
      List<Path> wanted = new ArrayList<>();
      if (projection != null) {
        wanted.addAll(projection);
      }
      if (filter != null) {
        wanted.addAll(paths(filter));
      }
      for (Path p : wanted) {
        wantsMore |= !IndexKeys.projects(table, index, p.attribute());
      }
    }
    return new Source(table, index, wantsMore);
  }

  /**
   * The index a Query or Scan names, or null for the table: DynamoDB refuses unknown indexes,
   * strongly consistent reads of a GSI, and reads of a GSI that is still being backfilled.
   */
  private static IndexDefinition index(
      TableDefinition table, String indexName, Boolean consistentRead) {
    if (indexName == null) {
      return null;
    }
    IndexDefinition index = table.index(indexName);
    if (index == null) {
      throw DynamoDbException.validation(
          "The table does not have the specified index: " + indexName);
    }
    if (index.global() && Boolean.TRUE.equals(consistentRead)) {
      throw DynamoDbException.validation(
          "Consistent reads are not supported on global secondary indexes");
    }
    if (!index.isActive()) {
      throw DynamoDbException.validation(
          "Cannot read from backfilling global secondary index: " + indexName);
    }
    return index;
  }

  /**
   * The consumption of a read: the table's, or the index's when it read an index (the capacity
   * model charges a GSI's reads to the GSI's own partitions, an LSI's to the table's);
   * ReturnConsumedCapacity INDEXES names the index, as DynamoDB does.
   */
  private static Consumption consumption(
      TableDefinition table, IndexDefinition index, double units) {
    Consumption consumption = new Consumption(table.name());
    if (index == null) {
      return consumption.tableRead(units);
    }
    return index.global()
        ? consumption.globalIndexRead(index.name(), units)
        : consumption.localIndexRead(index.name(), units);
  }

  /**
   * Checks an ExclusiveStartKey against the table's key schema and returns it. DynamoDB prefixes
   * key errors here with "The provided starting key is invalid: ".
   */
  private static Map<String, AttributeValue> startKey(
      TableDefinition table, Map<String, AttributeValue> key) {
    try {
      ItemKeys.checkKey(table, key);
    } catch (DynamoDbException e) {
      throw DynamoDbException.validation("The provided starting key is invalid: " + e.getMessage());
    }
    return key;
  }

  private static void checkSelect(
      String select, String projectionExpression, List<String> attributesToGet,
      String indexName) {
    String projectionParameter =
        projectionExpression != null
            ? "ProjectionExpression"
            : attributesToGet != null ? "AttributesToGet" : null;
    if (select == null || select.equals("SPECIFIC_ATTRIBUTES")) {
      if (select != null && projectionParameter == null) {
        throw DynamoDbException.validation(
            "Must specify the AttributesToGet or ProjectionExpression when choosing to get"
                + " SPECIFIC_ATTRIBUTES");
      }
      return;
    }
    if (projectionParameter != null) {
      throw DynamoDbException.validation(
          "Cannot specify the " + projectionParameter + " when choosing to get " + select);
    }
    if (select.equals("ALL_PROJECTED_ATTRIBUTES") && indexName == null) {
      throw DynamoDbException.validation(
          "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
    }
  }

  /** Every document path a condition refers to. */
  static List<Path> paths(ConditionExpression condition) {
    List<Path> out = new ArrayList<>();
    collectPaths(condition, out);
    return out;
  }

  private static void collectPaths(ConditionExpression c, List<Path> out) {
    if (c instanceof ConditionExpression.And and) {
      collectPaths(and.left(), out);
      collectPaths(and.right(), out);
    } else if (c instanceof ConditionExpression.Or or) {
      collectPaths(or.left(), out);
      collectPaths(or.right(), out);
    } else if (c instanceof ConditionExpression.Not not) {
      collectPaths(not.operand(), out);
    } else if (c instanceof ConditionExpression.Comparison cmp) {
      operandPaths(List.of(cmp.left(), cmp.right()), out);
    } else if (c instanceof ConditionExpression.Between b) {
      operandPaths(List.of(b.value(), b.low(), b.high()), out);
    } else if (c instanceof ConditionExpression.In in) {
      operandPaths(List.of(in.value()), out);
      operandPaths(in.candidates(), out);
    } else if (c instanceof ConditionExpression.Function f) {
      operandPaths(f.arguments(), out);
    }
  }

  private static void operandPaths(List<Operand> operands, List<Path> out) {
    for (Operand o : operands) {
      if (o instanceof Operand.PathOperand p) {
        out.add(p.path());
      } else if (o instanceof Operand.Size s) {
        out.add(s.path());
      }
    }
  }
}
