package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.expression.ConditionExpression;
import io.stator.expression.Path;
import io.stator.index.IndexKeys;
import io.stator.item.ItemCodec;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a Query or Scan reads: the table's items, or an index's entries. On an LSI, attributes
 * the index does not project are fetched from the item, as DynamoDB does (at extra cost); a GSI
 * returns only what it projects.
 */
final class ReadSource {
  private final Storage storage;
  private final TableDefinition table;
  private final IndexDefinition index;
  private final boolean fetch;

  private ReadSource(Storage storage, TableDefinition table, IndexDefinition index,
      boolean fetch) {
    this.storage = storage;
    this.table = table;
    this.index = index;
    this.fetch = fetch;
  }

  /**
   * The source of a read, with DynamoDB's rules for Select on an index: ALL_ATTRIBUTES needs the
   * whole item, which a GSI has only with projection ALL (an LSI fetches it).
   */
  static ReadSource of(Storage storage, TableDefinition table, IndexDefinition index,
      String select, List<Path> projection, ConditionExpression filter) {
    if (index == null || IndexDefinition.ALL.equals(index.projectionType())) {
      return new ReadSource(storage, table, index, false);
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
        wanted.addAll(Reads.paths(filter));
      }
      for (Path p : wanted) {
        wantsMore |= !IndexKeys.projects(table, index, p.attribute());
      }
    }
    return new ReadSource(storage, table, index, wantsMore);
  }

  String space() {
    return index == null ? table.space() : index.space();
  }

  /** The item of an entry read: the entry itself, or the table's item it stands for. */
  Map<String, AttributeValue> item(Map<String, AttributeValue> entry) {
    if (!fetch) {
      return entry;
    }
    return storage
        .get(table.space(), table.storageKey(entry))
        .map(rec -> ItemCodec.decode(rec.value()))
        .orElse(entry);
  }

  Map<String, AttributeValue> lastEvaluatedKey(StorageKey key, Map<String, AttributeValue> entry) {
    return index == null
        ? ItemKeys.keyOf(table, key)
        : IndexKeys.lastEvaluatedKey(table, index, entry);
  }
}
