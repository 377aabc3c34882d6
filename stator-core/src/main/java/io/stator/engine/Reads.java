package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.capacity.CapacityModel;
import io.stator.capacity.Consumption;
import io.stator.capacity.ReadConsistency;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Operand;
import io.stator.expression.Path;
import io.stator.index.IndexKeys;
import io.stator.item.ItemSize;
import io.stator.key.KeyCodec;
import io.stator.schema.Constraints;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.ScanPage;
import io.stator.storage.Segment;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
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
    QueryRange range = new QueryRange(table, index, terms);
    if (filter != null) {
      String parameter = r.filterExpression() != null ? "Filter Expression" : "QueryFilter";
      for (Path path : paths(filter)) {
        boolean isKey =
            index == null ? table.isKey(path.attribute()) : index.isKey(path.attribute());
        if (isKey) {
          throw DynamoDbException.validation(
              parameter + " can only contain non-primary key attributes: Primary key"
                  + " attribute: " + path.attribute());
        }
      }
    }

    ReadPlan plan = plan(table, index, r.select(), r.limit(), filter, projection,
        r.consistentRead());
    boolean forward = r.scanIndexForward() == null || r.scanIndexForward();
    range.startAfter(r.exclusiveStartKey(), forward);
    ReadPage page = read(plan, range.batches(storage, plan.source().space(), forward));
    // Query rounds the total of the items read once; a filter does not reduce it.
    double units = page.units(plan.consistency());
    capacity.read(table, index, range.partition(), units);
    return new QueryResponse(
        page.items(), page.count, page.scanned, page.lastEvaluatedKey(),
        plan.consumption(units).consumedCapacity(r.returnConsumedCapacity()));
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
    ReadPlan plan = plan(table, index, r.select(), r.limit(), filter, projection,
        r.consistentRead());
    String space = plan.source().space();
    // The storage splits a parallel Scan: it knows how the space is spread.
    Segment segment = r.totalSegments() == null
        ? new Segment(null, null)
        : storage.segment(space, r.segment(), r.totalSegments());
    StorageKey start = null;
    if (r.exclusiveStartKey() != null) {
      start =
          index == null
              ? table.storageKey(startKey(table, r.exclusiveStartKey()))
              : IndexKeys.startKey(table, index, r.exclusiveStartKey());
      if (!segment.contains(start)) {
        throw DynamoDbException.validation(
            "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use"
                + " ExclusiveStartKey with correct Segment. TotalSegments: " + r.totalSegments()
                + " Segment: " + r.segment());
      }
    }
    SegmentBatches batches = new SegmentBatches(space, segment, start);
    ReadPage page = read(plan, batches);
    // Like Query: the page's total rounded once, charged to the partition where it starts.
    double units = page.units(plan.consistency());
    StorageKey first = page.first != null ? page.first : batches.after;
    byte[] from = segment.fromPartition();
    long hash = first != null ? KeyCodec.hashOf(first.partition())
        : from != null ? KeyCodec.hashOf(from) : 0;
    capacity.readAt(table, index, hash, units);
    return new ScanResponse(
        page.items(), page.count, page.scanned, page.lastEvaluatedKey(),
        plan.consumption(units).consumedCapacity(r.returnConsumedCapacity()));
  }

  /**
   * The plan of a Query or Scan of {@code table}, or of {@code index} of it: its source (which
   * refuses a Select the index cannot serve), filter, projection, limit and consistency.
   */
  private ReadPlan plan(TableDefinition table, IndexDefinition index, String select,
      Integer limit, ConditionExpression filter, List<Path> projection, Boolean consistentRead) {
    ReadSource source = ReadSource.of(storage, table, index, select, projection, filter);
    return new ReadPlan(table, index, source, limit, filter, projection,
        "COUNT".equals(select), ReadConsistency.of(consistentRead));
  }

  /** The records a read goes through, a batch at a time, in the order it reads them. */
  interface Batches {
    Batches NONE = new Batches() {
      @Override
      public List<StoredRecord> next(int want) {
        throw new IllegalStateException("no batch to read");
      }

      @Override
      public boolean more() {
        return false;
      }
    };

    /** The next batch of at most {@code want} records (at least one while there are more). */
    List<StoredRecord> next(int want);

    /** Whether records may follow the last batch. */
    boolean more();
  }

  /**
   * Reads a plan's page: batches until the page is full (its Limit or 1 MB) or the records end.
   * The one execute step of Query and Scan.
   */
  private ReadPage read(ReadPlan plan, Batches batches) {
    ReadPage page = new ReadPage(plan);
    while (batches.more()) {
      List<StoredRecord> batch;
      try {
        batch = batches.next(page.batchSize());
      } catch (StorageException e) {
        throw tables.failure(plan.table(), e);
      }
      for (StoredRecord record : batch) {
        if (page.add(record)) {
          break;
        }
      }
      if (page.full()) {
        break;
      }
    }
    return page;
  }

  /** A Scan's segment (the whole space when not parallel) after a start key, page by page. */
  private final class SegmentBatches implements Batches {
    private final String space;
    private final Segment segment;
    /** The last key read, or the start key: where the next batch starts. */
    StorageKey after;
    private boolean more = true;

    SegmentBatches(String space, Segment segment, StorageKey start) {
      this.space = space;
      this.segment = segment;
      this.after = start;
    }

    @Override
    public List<StoredRecord> next(int want) {
      ScanPage batch = storage.scanPage(
          space, segment.fromPartition(), segment.toPartition(), after, want);
      // The storage says where the range ends: a short batch may be followed by more.
      more = batch.more();
      if (!batch.records().isEmpty()) {
        after = batch.records().get(batch.records().size() - 1).key();
      }
      return batch.records();
    }

    @Override
    public boolean more() {
      return more;
    }
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
   * Checks an ExclusiveStartKey against the table's key schema and returns it. DynamoDB prefixes
   * key errors here with "The provided starting key is invalid: ".
   */
  static Map<String, AttributeValue> startKey(
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
