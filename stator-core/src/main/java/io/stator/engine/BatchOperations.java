package io.stator.engine;

import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchGetItemResponse;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.KeysAndAttributes;
import io.stator.api.ProvisionedThroughputExceededException;
import io.stator.api.ThrottledException;
import io.stator.api.ThrottlingException;
import io.stator.api.ThrottlingReason;
import io.stator.api.WriteRequest;
import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.CapacityModel;
import io.stator.capacity.Consumption;
import io.stator.capacity.ReadConsistency;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Path;
import io.stator.index.IndexKeys;
import io.stator.index.IndexWrite;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.storage.Consistency;
import io.stator.storage.KeyRead;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * BatchGetItem and BatchWriteItem: many independent single-item reads and writes in one call.
 *
 * <p>A batch is not a transaction: each write is atomic on its own (one commit per write, so
 * indexes and streams see each), and a reader may see some writes of a batch before others. What
 * a batch does guarantee, as DynamoDB's does, is that the whole request is validated before the
 * first item is read or written: a malformed key, an item over 400 KB, an unknown table or two
 * requests on one item fail the call with nothing written. Items that could not be processed
 * (once capacity is enforced, throttled ones) come back in {@code UnprocessedKeys} /
 * {@code UnprocessedItems}, which are always present and empty when everything was done.
 *
 * <h2>Capacity</h2>
 *
 * DynamoDB processes each item of a batch as an individual GetItem, PutItem or DeleteItem, and
 * prices it so: each item read is rounded up to 4 KB on its own (a missing item costs the
 * minimum read), each put costs the larger of the old and new item per KB and each delete the
 * old item's, at least one WCU (also for a missing item). ConsumedCapacity is a list with one
 * entry per table. Each item is charged to its own partition in the {@link CapacityModel}; an
 * item the model throttles (enforce mode) is not read or written and comes back unprocessed,
 * and only when no item at all could be processed does the call fail: BatchGetItem with
 * ProvisionedThroughputExceededException, BatchWriteItem with it when a table's provisioned
 * throughput ran out and with ThrottlingException when only partition limits did, as the API
 * reference documents.
 */
final class BatchOperations {
  /** DynamoDB's limits: 100 keys per BatchGetItem, 25 writes per BatchWriteItem. */
  static final int MAX_GET_KEYS = 100;

  static final int MAX_WRITES = 25;

  /** BatchGetItem returns at most 16 MB of items; the rest are unprocessed keys. */
  static final long MAX_GET_RESPONSE_BYTES = 16L * 1024 * 1024;

  private static final String TABLE_NAME_CONSTRAINTS =
      "Map keys must satisfy constraint: [Member must have length less than or equal to 255,"
          + " Member must have length greater than or equal to 3, Member must satisfy regular"
          + " expression pattern: " + Constraints.NAME_PATTERN + "]";

  private final Storage storage;
  private final Tables tables;
  private final CapacityModel capacity;
  private final ReadModifyWrite pipeline;

  BatchOperations(
      Storage storage, Tables tables, CapacityModel capacity, ReadModifyWrite pipeline) {
    this.storage = storage;
    this.tables = tables;
    this.capacity = capacity;
    this.pipeline = pipeline;
  }

  // ---- BatchGetItem -------------------------------------------------------------------------

  /** The reads of one table, validated. */
  private record TableReads(
      String tableName, KeysAndAttributes request, TableDefinition table, List<Path> projection) {}

  BatchGetItemResponse batchGetItem(BatchGetItemRequest r) {
    checkGets(r);
    List<TableReads> resolved = tableReads(r.requestItems());
    // Every key of every table in one call to the storage; the strong read when any table asks
    // for it (a storage may serve a stronger read than asked, never a weaker one).
    List<KeyRead> keyReads = new ArrayList<>();
    Consistency hint = Consistency.EVENTUAL;
    for (TableReads t : resolved) {
      for (Map<String, AttributeValue> key : t.request().keys()) {
        keyReads.add(new KeyRead(t.table().space(), t.table().storageKey(key)));
      }
      if (Boolean.TRUE.equals(t.request().consistentRead())) {
        hint = Consistency.STRONG;
      }
    }
    List<Optional<StoredRecord>> records = readAll(resolved, keyReads, hint);
    GetAnswer answer = new GetAnswer();
    int next = 0;
    for (TableReads t : resolved) {
      next = answer.add(t, keyReads, records, next);
    }
    return answer.response(r.returnConsumedCapacity());
  }

  /**
   * BatchGetItem's answer as it is gathered, table by table: the items found and projected, the
   * keys left unprocessed (throttled, or past the 16 MB the answer may hold), each table's
   * consumption.
   */
  private final class GetAnswer {
    private final Map<String, List<Map<String, AttributeValue>>> responses = new LinkedHashMap<>();
    private final Map<String, KeysAndAttributes> unprocessed = new LinkedHashMap<>();
    private final Map<String, Consumption> consumed = new LinkedHashMap<>();
    private ThrottledException throttled;
    private int processed;
    private long responseBytes;

    /** Adds one table's keys, read from {@code records} at {@code next}; the index after them. */
    int add(TableReads t, List<KeyRead> keyReads, List<Optional<StoredRecord>> records,
        int next) {
      List<Map<String, AttributeValue>> found = new ArrayList<>();
      responses.put(t.tableName(), found);
      Consumption consumption = new Consumption(t.tableName());
      ReadConsistency consistency = ReadConsistency.of(t.request().consistentRead());
      List<Map<String, AttributeValue>> left = new ArrayList<>();
      for (Map<String, AttributeValue> key : t.request().keys()) {
        KeyRead keyRead = keyReads.get(next);
        Optional<StoredRecord> record = records.get(next++);
        if (responseBytes > MAX_GET_RESPONSE_BYTES) {
          left.add(key);
          continue;
        }
        StorageKey storageKey = keyRead.key();
        Map<String, AttributeValue> whole =
            record.map(rec -> ItemCodec.decode(rec.value())).orElse(null);
        // Priced as a GetItem of the whole item, whatever the projection.
        double units = CapacityCalculator.getItem(whole == null ? 0 : ItemSize.of(whole),
            consistency);
        try {
          capacity.read(t.table(), storageKey.partition(), units);
        } catch (ThrottledException e) {
          throttled = e;
          left.add(key);
          continue;
        }
        processed++;
        consumption.tableRead(units);
        if (whole == null) {
          continue;
        }
        Map<String, AttributeValue> item = RequestConstraints.project(whole, t.projection());
        long size = ItemSize.of(item);
        if (responseBytes + size > MAX_GET_RESPONSE_BYTES) {
          // Stop before the answer passes 16 MB; this key and all later ones are unprocessed.
          responseBytes = MAX_GET_RESPONSE_BYTES + 1;
          left.add(key);
          continue;
        }
        responseBytes += size;
        found.add(item);
      }
      if (consumption.readUnits() > 0) {
        consumed.put(t.tableName(), consumption);
      }
      if (!left.isEmpty()) {
        KeysAndAttributes k = t.request();
        unprocessed.put(
            t.tableName(),
            new KeysAndAttributes(
                List.copyOf(left),
                k.attributesToGet(),
                k.consistentRead(),
                k.projectionExpression(),
                k.expressionAttributeNames()));
      }
      return next;
    }

    BatchGetItemResponse response(String returnConsumedCapacity) {
      if (processed == 0 && throttled != null) {
        throw throttled; // nothing could be read: DynamoDB fails the whole call
      }
      return new BatchGetItemResponse(responses, unprocessed,
          Consumption.list(consumed.values(), returnConsumedCapacity));
    }
  }

  /** BatchGetItem's request-level constraints, all reported at once as DynamoDB does. */
  private static void checkGets(BatchGetItemRequest r) {
    Map<String, KeysAndAttributes> requestItems = r.requestItems();
    Constraints c = new Constraints();
    c.notNull("requestItems", requestItems);
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(), "INDEXES", "TOTAL", "NONE");
    if (requestItems != null) {
      String shown = ShownValue.keysAndAttributes(requestItems);
      c.lengthAtLeast("requestItems", shown, requestItems.size(), 1);
      checkTableNames(c, requestItems.keySet(), shown);
      requestItems.forEach(
          (name, reads) -> {
            String path = "requestItems." + name + ".member";
            if (reads == null) {
              return;
            }
            c.notNull(path + ".keys", reads.keys());
            if (reads.keys() != null) {
              String keys = ShownValue.keys(reads.keys());
              c.lengthAtLeast(path + ".keys", keys, reads.keys().size(), 1);
              c.lengthAtMost(path + ".keys", keys, reads.keys().size(), MAX_GET_KEYS);
            }
            if (reads.attributesToGet() != null) {
              int n = reads.attributesToGet().size();
              c.lengthAtLeast(path + ".attributesToGet", reads.attributesToGet(), n, 1);
              c.lengthAtMost(path + ".attributesToGet", reads.attributesToGet(), n, 255);
            }
          });
    }
    c.check();

  }

  /**
   * Each table's reads: expressions and duplicates, table by table, then the total, as DynamoDB
   * checks them; then each table (ResourceNotFoundException) and its keys.
   */
  private List<TableReads> tableReads(Map<String, KeysAndAttributes> requestItems) {
    // Expressions and duplicates, table by table, then the total, as DynamoDB checks them.
    List<TableReads> reads = new ArrayList<>();
    int keyCount = 0;
    for (Map.Entry<String, KeysAndAttributes> e : requestItems.entrySet()) {
      KeysAndAttributes k = e.getValue();
      RequestConstraints.expressionParameters(
          RequestConstraints.params("ProjectionExpression", k.projectionExpression()),
          RequestConstraints.params("AttributesToGet", k.attributesToGet()),
          k.expressionAttributeNames(),
          null);
      ExpressionContext context = new ExpressionContext(k.expressionAttributeNames(), null);
      List<Path> projection =
          RequestConstraints.projection(k.projectionExpression(), k.attributesToGet(), context);
      context.checkAllUsed();
      Set<Map<String, AttributeValue>> seen = new HashSet<>();
      for (Map<String, AttributeValue> key : k.keys()) {
        if (!seen.add(key)) {
          throw DynamoDbException.validation("Provided list of item keys contains duplicates");
        }
        if (++keyCount > MAX_GET_KEYS) {
          throw DynamoDbException.validation("Too many items requested for the BatchGetItem call");
        }
      }
      reads.add(new TableReads(e.getKey(), k, null, projection));
    }
    List<TableReads> resolved = new ArrayList<>();
    for (TableReads t : reads) {
      TableDefinition table = tables.forItems(t.tableName());
      for (Map<String, AttributeValue> key : t.request().keys()) {
        ItemKeys.checkKey(table, key);
      }
      resolved.add(new TableReads(t.tableName(), t.request(), table, t.projection()));
    }

    return resolved;
  }

  /** The records of every key, in order; a table deleted by another engine is not found. */
  private List<Optional<StoredRecord>> readAll(
      List<TableReads> resolved, List<KeyRead> keyReads, Consistency hint) {
    try {
      return storage.getAll(keyReads, hint);
    } catch (StorageException e) {
      // A table that another engine deleted is not found; any other fault is the storage's.
      for (TableReads t : resolved) {
        RuntimeException failure = tables.failure(t.table(), e);
        if (failure != e) {
          throw failure;
        }
      }
      throw e;
    }
  }

  // ---- BatchWriteItem -----------------------------------------------------------------------

  /**
   * One validated write: a put ({@code item} and its {@code encoded} form non-null, of {@code
   * size} bytes) or a delete; {@code request} is what comes back in UnprocessedItems.
   */
  private record Write(
      String tableName, TableDefinition table, StorageKey key, byte[] encoded,
      Map<String, AttributeValue> item, long size, WriteRequest request) {}

  BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest r) {
    checkWrites(r);
    checkWriteRequests(r.requestItems());
    List<Write> planned = plannedWrites(r.requestItems());
    // Each write is its own atomic commit, charged to its partition first. It reads the old
    // item for its price and for the indexes: the entries to remove and the change-log record.
    Map<String, List<WriteRequest>> unprocessed = new LinkedHashMap<>();
    Map<String, Consumption> consumed = new LinkedHashMap<>();
    Map<String, List<ItemCollectionMetrics>> metrics = new LinkedHashMap<>();
    List<ThrottledException> throttles = new ArrayList<>();
    for (Write w : planned) {
      Applied applied;
      try {
        applied = commit(w);
      } catch (ThrottledException e) {
        throttles.add(e);
        unprocessed.computeIfAbsent(w.tableName(), k -> new ArrayList<>()).add(w.request());
        continue;
      } catch (StorageException e) {
        throw tables.failure(w.table(), e);
      }
      Consumption consumption =
          consumed.computeIfAbsent(w.tableName(), Consumption::new).tableWrite(applied.units());
      if (applied.indexWrite() != null) {
        applied.indexWrite().addTo(consumption, false);
        ItemCollectionMetrics m =
            applied.indexWrite().itemCollectionMetrics(r.returnItemCollectionMetrics());
        if (m != null) {
          metrics.computeIfAbsent(w.tableName(), k -> new ArrayList<>()).add(m);
        }
      }
    }
    if (throttles.size() == planned.size()) {
      throw noneProcessed(throttles);
    }
    return new BatchWriteItemResponse(unprocessed, metrics.isEmpty() ? null : metrics,
        Consumption.list(consumed.values(), r.returnConsumedCapacity()));
  }

  /** BatchWriteItem's request-level constraints, all reported at once as DynamoDB does. */
  private static void checkWrites(BatchWriteItemRequest r) {
    Map<String, List<WriteRequest>> requestItems = r.requestItems();
    Constraints c = new Constraints();
    c.notNull("requestItems", requestItems);
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(), "INDEXES", "TOTAL", "NONE");
    c.oneOf("returnItemCollectionMetrics", r.returnItemCollectionMetrics(), "SIZE", "NONE");
    if (requestItems != null) {
      String shown = ShownValue.writeRequests(requestItems);
      c.lengthAtLeast("requestItems", shown, requestItems.size(), 1);
      checkTableNames(c, requestItems.keySet(), shown);
      for (List<WriteRequest> writes : requestItems.values()) {
        if (writes == null || writes.isEmpty() || writes.size() > MAX_WRITES) {
          c.add("requestItems", shown,
              "Map value must satisfy constraint: [Member must have length less than or equal"
                  + " to " + MAX_WRITES + ", Member must have length greater than or equal to 1]");
          break;
        }
      }
      requestItems.forEach(
          (name, writes) -> {
            for (int i = 0; writes != null && i < writes.size(); i++) {
              String path = "requestItems." + name + ".member." + (i + 1) + ".member";
              WriteRequest w = writes.get(i);
              if (w.putRequest() != null) {
                c.notNull(path + ".putRequest.item", w.putRequest().item());
              }
              if (w.deleteRequest() != null) {
                c.notNull(path + ".deleteRequest.key", w.deleteRequest().key());
              }
            }
          });
    }
    c.check();
  }

  /** Each write is a put or a delete of an item within the size limit; 25 at most in all. */
  private static void checkWriteRequests(Map<String, List<WriteRequest>> requestItems) {
    int writeCount = 0;
    for (List<WriteRequest> writes : requestItems.values()) {
      for (WriteRequest w : writes) {
        // DynamoDB words an empty (or doubly set) WriteRequest like an attribute value.
        if ((w.putRequest() == null) == (w.deleteRequest() == null)) {
          throw DynamoDbException.validation(
              "Supplied AttributeValue has more than one datatypes set, must contain exactly one"
                  + " of the supported datatypes");
        }
        if (w.putRequest() != null
            && ItemSize.of(w.putRequest().item()) > ItemSize.MAX_ITEM_SIZE) {
          throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
        }
        writeCount++;
      }
    }
    if (writeCount > MAX_WRITES) {
      throw DynamoDbException.validation("Too many items requested for the BatchWriteItem call");
    }
  }

  /** Each table's writes planned against its definition; no key twice in one table. */
  private List<Write> plannedWrites(Map<String, List<WriteRequest>> requestItems) {
    List<Write> planned = new ArrayList<>();
    for (Map.Entry<String, List<WriteRequest>> e : requestItems.entrySet()) {
      TableDefinition table = tables.forItems(e.getKey());
      Set<StorageKey> seen = new HashSet<>();
      for (WriteRequest w : e.getValue()) {
        Write write = plan(e.getKey(), table, w);
        if (!seen.add(write.key())) {
          throw DynamoDbException.validation("Provided list of item keys contains duplicates");
        }
        planned.add(write);
      }
    }
    return planned;
  }

  /**
   * What one applied write consumed on the table, and its index side (null when it changed
   * nothing): the index writes it cost and its item collection's metrics.
   */
  private record Applied(double units, IndexWrite indexWrite) {}

  /**
   * Applies one write through {@link ReadModifyWrite}: reads the item it replaces (its size
   * prices the write, as PutItem's and DeleteItem's), charges the capacity model once, then
   * commits expecting the read version and the definition it was computed against, reading
   * again if another write or a change of the table's indexes got in between.
   *
   * @throws ProvisionedThroughputExceededException when the model throttles it; nothing written
   */
  private Applied commit(Write w) {
    return pipeline.write(w.table(), w.key(), ReadModifyWrite.Writer.BATCH,
        (table, old, oldSize) -> {
          double units = CapacityCalculator.write(oldSize, w.size(), false);
          if (w.encoded() == null && old == null) {
            // deleting an absent item changes nothing, and still costs one unit
            return ReadModifyWrite.Change.unchanged(units, Applied::new);
          }
          return ReadModifyWrite.Change.write(table, old, w.item(), w.encoded(), units,
              w.size() - oldSize, Applied::new);
        });
  }

  /**
   * The error when every write of a batch was throttled: ProvisionedThroughputExceededException
   * if a table's provisioned throughput was exceeded, ThrottlingException when only partition
   * limits were ("other throttling scenarios (such as exceeding partition level limits)"), with
   * the reasons of all throttles, each once.
   */
  private static DynamoDbException noneProcessed(
      List<ThrottledException> throttles) {
    List<ThrottlingReason> reasons = new ArrayList<>();
    boolean provisioned = false;
    for (ThrottledException e : throttles) {
      for (ThrottlingReason reason : e.throttlingReasons()) {
        if (!reasons.contains(reason)) {
          reasons.add(reason);
        }
        provisioned |= reason.reason().endsWith("ProvisionedThroughputExceeded");
      }
    }
    String message = throttles.get(0).getMessage();
    return provisioned
        ? new ProvisionedThroughputExceededException(message, reasons)
        : new ThrottlingException(message, reasons);
  }

  /**
   * Validates one write as PutItem or DeleteItem would. DynamoDB reports a missing key attribute
   * or a key of the wrong type in a batch with the key-map message, for puts too.
   */
  private static Write plan(String tableName, TableDefinition table, WriteRequest w) {
    if (w.putRequest() != null) {
      Map<String, AttributeValue> item = w.putRequest().item();
      try {
        ItemKeys.checkItem(table, item);
      } catch (DynamoDbException e) {
        String m = e.getMessage();
        if (m.contains("Missing the key") || m.contains("Type mismatch for key")) {
          throw DynamoDbException.validation(
              "The provided key element does not match the schema");
        }
        throw e;
      }
      IndexKeys.checkItem(table, item);
      return new Write(tableName, table, table.storageKey(item), ItemCodec.encode(item),
          item, ItemSize.of(item), w);
    }
    Map<String, AttributeValue> key = w.deleteRequest().key();
    ItemKeys.checkKey(table, key);
    return new Write(tableName, table, table.storageKey(key), null, null, 0, w);
  }

  /** Table names are the keys of RequestItems: DynamoDB checks them as map keys. */
  private static void checkTableNames(Constraints c, Set<String> names, Object shown) {
    for (String name : names) {
      if (name.length() < 3 || name.length() > 255 || !name.matches(Constraints.NAME_PATTERN)) {
        c.add("requestItems", shown, TABLE_NAME_CONSTRAINTS);
        return;
      }
    }
  }
}
