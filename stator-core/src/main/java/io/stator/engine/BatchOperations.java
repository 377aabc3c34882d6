package io.stator.engine;

import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchGetItemResponse;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.KeysAndAttributes;
import io.stator.api.WriteRequest;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Path;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.index.IndexKeys;
import io.stator.index.IndexWrite;
import io.stator.index.Indexes;
import io.stator.schema.Catalog;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
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
  private final Indexes indexes;

  BatchOperations(Storage storage, Tables tables, Indexes indexes) {
    this.storage = storage;
    this.tables = tables;
    this.indexes = indexes;
  }

  // ---- BatchGetItem -------------------------------------------------------------------------

  /** The reads of one table, validated. */
  private record TableReads(
      String tableName, KeysAndAttributes request, TableDefinition table, List<Path> projection) {}

  BatchGetItemResponse batchGetItem(BatchGetItemRequest r) {
    Map<String, KeysAndAttributes> requestItems = r.requestItems();
    Constraints c = new Constraints();
    c.notNull("requestItems", requestItems);
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(), "INDEXES", "TOTAL", "NONE");
    if (requestItems != null) {
      c.lengthAtLeast("requestItems", requestItems, requestItems.size(), 1);
      checkTableNames(c, requestItems.keySet(), requestItems);
      requestItems.forEach(
          (name, reads) -> {
            String path = "requestItems." + name + ".member";
            if (reads == null) {
              return;
            }
            c.notNull(path + ".keys", reads.keys());
            if (reads.keys() != null) {
              c.lengthAtLeast(path + ".keys", reads.keys(), reads.keys().size(), 1);
              c.lengthAtMost(path + ".keys", reads.keys(), reads.keys().size(), MAX_GET_KEYS);
            }
            if (reads.attributesToGet() != null) {
              int n = reads.attributesToGet().size();
              c.lengthAtLeast(path + ".attributesToGet", reads.attributesToGet(), n, 1);
              c.lengthAtMost(path + ".attributesToGet", reads.attributesToGet(), n, 255);
            }
          });
    }
    c.check();

    // Expressions and duplicates, table by table, then the total, as DynamoDB checks them.
    List<TableReads> reads = new ArrayList<>();
    int keyCount = 0;
    for (Map.Entry<String, KeysAndAttributes> e : requestItems.entrySet()) {
      KeysAndAttributes k = e.getValue();
      Requests.expressionParameters(
          Requests.params("ProjectionExpression", k.projectionExpression()),
          Requests.params("AttributesToGet", k.attributesToGet()),
          k.expressionAttributeNames(),
          null);
      ExpressionContext context = new ExpressionContext(k.expressionAttributeNames(), null);
      List<Path> projection =
          Requests.projection(k.projectionExpression(), k.attributesToGet(), context);
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

    Map<String, List<Map<String, AttributeValue>>> responses = new LinkedHashMap<>();
    Map<String, KeysAndAttributes> unprocessed = new LinkedHashMap<>();
    long responseBytes = 0;
    for (TableReads t : resolved) {
      List<Map<String, AttributeValue>> found = new ArrayList<>();
      responses.put(t.tableName(), found);
      List<Map<String, AttributeValue>> left = new ArrayList<>();
      for (Map<String, AttributeValue> key : t.request().keys()) {
        if (responseBytes > MAX_GET_RESPONSE_BYTES) {
          left.add(key);
          continue;
        }
        Optional<StoredRecord> record;
        try {
          record = storage.get(t.table().space(), ItemKeys.storageKey(t.table(), key));
        } catch (StorageException e) {
          throw tables.failure(t.table(), e);
        }
        if (record.isEmpty()) {
          continue;
        }
        Map<String, AttributeValue> item =
            Requests.project(ItemCodec.decode(record.get().value()), t.projection());
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
    }
    return new BatchGetItemResponse(responses, unprocessed, null);
  }

  // ---- BatchWriteItem -----------------------------------------------------------------------

  /** One validated write: a put ({@code encoded} non-null) or a delete. */
  private record Write(
      TableDefinition table, StorageKey key, byte[] encoded, Map<String, AttributeValue> item) {}

  BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest r) {
    Map<String, List<WriteRequest>> requestItems = r.requestItems();
    Constraints c = new Constraints();
    c.notNull("requestItems", requestItems);
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(), "INDEXES", "TOTAL", "NONE");
    c.oneOf("returnItemCollectionMetrics", r.returnItemCollectionMetrics(), "SIZE", "NONE");
    if (requestItems != null) {
      c.lengthAtLeast("requestItems", requestItems, requestItems.size(), 1);
      checkTableNames(c, requestItems.keySet(), requestItems);
      for (List<WriteRequest> writes : requestItems.values()) {
        if (writes == null || writes.isEmpty() || writes.size() > MAX_WRITES) {
          c.add("requestItems", requestItems,
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

    List<Write> planned = new ArrayList<>();
    for (Map.Entry<String, List<WriteRequest>> e : requestItems.entrySet()) {
      TableDefinition table = tables.forItems(e.getKey());
      Set<StorageKey> seen = new HashSet<>();
      for (WriteRequest w : e.getValue()) {
        Write write = plan(table, w);
        if (!seen.add(write.key())) {
          throw DynamoDbException.validation("Provided list of item keys contains duplicates");
        }
        planned.add(write);
      }
    }

    // Each write is its own atomic commit. It reads the old item only for the indexes: the
    // entries to remove and the change-log record need it.
    Map<String, List<ItemCollectionMetrics>> metrics = new LinkedHashMap<>();
    for (Write w : planned) {
      IndexWrite written;
      try {
        written = commit(w);
      } catch (StorageException e) {
        throw tables.failure(w.table(), e);
      }
      ItemCollectionMetrics m =
          written == null ? null : written.itemCollectionMetrics(r.returnItemCollectionMetrics());
      if (m != null) {
        metrics.computeIfAbsent(w.table().name(), k -> new ArrayList<>()).add(m);
      }
    }
    return new BatchWriteItemResponse(
        new LinkedHashMap<>(), metrics.isEmpty() ? null : metrics, null);
  }

  /**
   * One write: read, commit with the read version and the index hook, again on conflict; returns
   * the index side of the write (null when it changed nothing).
   */
  private IndexWrite commit(Write w) {
    while (true) {
      Catalog.Entry entry = tables.entryForItems(w.table().name());
      TableDefinition table = entry.table();
      if (!table.tableId().equals(w.table().tableId())) {
        throw DynamoDbException.resourceNotFound("Requested resource not found");
      }
      Optional<StoredRecord> current = storage.get(table.space(), w.key());
      Map<String, AttributeValue> old =
          current.map(rec -> ItemCodec.decode(rec.value())).orElse(null);
      if (w.encoded() == null && old == null) {
        return null;
      }
      Commit commit =
          new Commit()
              .expect(table.space(), w.key(),
                  current.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT));
      if (w.encoded() == null) {
        commit.delete(table.space(), w.key());
      } else {
        commit.put(table.space(), w.key(), w.encoded());
      }
      try (IndexWrite indexWrite = indexes.stage(entry, old, w.item(), commit)) {
        storage.commit(commit);
        return indexWrite;
      } catch (CommitConflictException e) {
        // a concurrent write got in between: read again
      }
    }
  }

  /**
   * Validates one write as PutItem or DeleteItem would. DynamoDB reports a missing key attribute
   * or a key of the wrong type in a batch with the key-map message, for puts too.
   */
  private static Write plan(TableDefinition table, WriteRequest w) {
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
      return new Write(table, ItemKeys.storageKey(table, item), ItemCodec.encode(item), item);
    }
    Map<String, AttributeValue> key = w.deleteRequest().key();
    ItemKeys.checkKey(table, key);
    return new Write(table, ItemKeys.storageKey(table, key), null, null);
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
