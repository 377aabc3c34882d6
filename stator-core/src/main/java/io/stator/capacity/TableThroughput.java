package io.stator.capacity;

import io.stator.api.ThrottlingReason;
import io.stator.key.KeyCodec;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The partition models of one table incarnation and of each of its global secondary indexes,
 * under one lock. A local secondary index shares its table's partitions and throughput (it is
 * part of the item collection), so it has no model of its own.
 *
 * <p>One lock for the table and its indexes, because a write is decided across them: DynamoDB
 * throttles a base-table write when a GSI it must update lacks write capacity ("if a GSI has
 * insufficient write capacity, write operations to the base table are throttled"), so the
 * write's charge to the table and its charges to each GSI are all prepared first, and applied
 * only if every one admits them. One lock also keeps a GSI read from slipping between the two.
 */
final class TableThroughput {
  private final CapacitySettings settings;
  private final String tableArn;
  private final ToLongFunction<String> spaceSize;
  private final SavedPartitions saved;
  private final TableCapacity table;
  /** Each global secondary index's model, by index name; an index re-created gets a new one. */
  private final Map<String, IndexCapacity> globalIndexes = new HashMap<>();
  /**
   * The definition last followed. Every request passes its table's definition, which is the same
   * object until the table changes, so the check is a volatile read outside the lock: a request
   * takes the monitor once (to charge), not twice.
   */
  private volatile TableDefinition followed;

  private record IndexCapacity(String space, TableCapacity capacity) {}

  TableThroughput(TableDefinition definition, String tableArn, CapacitySettings settings,
      ToLongFunction<String> spaceSize, SavedPartitions saved, long nowMillis) {
    this.settings = settings;
    this.tableArn = tableArn;
    this.spaceSize = spaceSize;
    this.saved = saved;
    String space = definition.space();
    this.table = new TableCapacity(Throughput.of(definition), definition.hashKey().type(),
        "Table", tableArn, settings, spaceSize.applyAsLong(space), saved.load(space),
        starts -> saved.save(space, starts), nowMillis);
    follow(definition, nowMillis);
  }

  /**
   * Follows the table's definition: UpdateTable's new throughput for the table and its indexes,
   * GSIs created (a model each) and deleted (forgotten).
   */
  void follow(TableDefinition definition, long nowMillis) {
    if (definition != followed) {
      followChange(definition, nowMillis);
    }
  }

  private synchronized void followChange(TableDefinition definition, long nowMillis) {
    if (definition == followed) {
      return;
    }
    table.follow(Throughput.of(definition), nowMillis);
    List<String> present = new ArrayList<>();
    for (IndexDefinition index : definition.indexes()) {
      if (!index.global()) {
        continue;
      }
      present.add(index.name());
      IndexCapacity known = globalIndexes.get(index.name());
      if (known != null && known.space().equals(index.space())) {
        known.capacity().follow(Throughput.of(definition, index), nowMillis);
        continue;
      }
      if (known != null) {
        saved.forget(known.space());
      }
      String space = index.space();
      String hashKeyType = index.hashKeys().size() == 1 ? index.hashKeys().get(0).type() : "B";
      globalIndexes.put(index.name(), new IndexCapacity(space, new TableCapacity(
          Throughput.of(definition, index), hashKeyType, "Index",
          tableArn + "/index/" + index.name(), settings, spaceSize.applyAsLong(space),
          saved.load(space), starts -> saved.save(space, starts), nowMillis)));
    }
    globalIndexes.entrySet().removeIf(e -> {
      boolean gone = !present.contains(e.getKey());
      if (gone) {
        saved.forget(e.getValue().space());
      }
      return gone;
    });
    followed = definition; // published last: a request seeing it finds the models updated
  }

  /** The model that serves reads of {@code index}: its own for a GSI, else the table's. */
  private TableCapacity readModel(IndexDefinition index) {
    if (index == null || !index.global()) {
      return table;
    }
    IndexCapacity c = globalIndexes.get(index.name());
    return c == null ? table : c.capacity();
  }

  /** Charges a read; returns the ThrottlingReason, or null when admitted. */
  synchronized ThrottlingReason read(IndexDefinition index, long hash, byte[] key,
      double units, long nowMillis) {
    TableCapacity model = readModel(index);
    String reason = model.charge(false, hash, key, units, 0, nowMillis);
    return reason == null ? null : new ThrottlingReason(reason, model.arn);
  }

  /**
   * Charges a write to the table's partition and each of its index writes to its GSI's
   * partition, all or nothing; returns the first ThrottlingReason (the table's, else the first
   * index's in the order given), or null when every one admits it.
   */
  synchronized ThrottlingReason write(long hash, byte[] key, double units, long sizeDelta,
      List<GlobalIndexWrite> indexWrites, long nowMillis) {
    if (indexWrites.isEmpty()) {
      String reason = table.charge(true, hash, key, units, sizeDelta, nowMillis);
      return reason == null ? null : new ThrottlingReason(reason, table.arn);
    }
    List<TableCapacity.Charge> charges = new ArrayList<>(indexWrites.size() + 1);
    charges.add(table.prepare(true, hash, key, units, sizeDelta, nowMillis));
    for (GlobalIndexWrite w : indexWrites) {
      IndexCapacity c = globalIndexes.get(w.indexName());
      if (c != null) {
        charges.add(c.capacity().prepare(true, KeyCodec.hashOf(w.partition()), w.partition(),
            w.units(), w.sizeDelta(), nowMillis));
      }
    }
    ThrottlingReason first = null;
    for (TableCapacity.Charge c : charges) {
      if (c.reason() != null) {
        c.owner().refuse(c);
        if (first == null) {
          first = new ThrottlingReason(c.reason(), c.owner().arn);
        }
      }
    }
    if (first == null) {
      for (TableCapacity.Charge c : charges) {
        c.owner().apply(c, nowMillis);
      }
    }
    return first;
  }

  /**
   * The partitions of the table ({@code indexName} null) or of one of its GSIs; null for an
   * index the table does not have as a GSI.
   */
  synchronized PartitionReport report(String tableName, String indexName, long nowMillis) {
    if (indexName == null) {
      return table.report(tableName, null, nowMillis);
    }
    IndexCapacity c = globalIndexes.get(indexName);
    return c == null ? null : c.capacity().report(tableName, indexName, nowMillis);
  }

  /** The table's partitions' starts (ascending; the same array until one splits). */
  long[] starts() {
    return table.starts();
  }

  synchronized int partitionCount(String indexName) {
    if (indexName == null) {
      return table.partitionCount();
    }
    IndexCapacity c = globalIndexes.get(indexName);
    return c == null ? 0 : c.capacity().partitionCount();
  }
}
