package io.stator.schema;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateGlobalSecondaryIndexAction;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GlobalSecondaryIndexUpdate;
import io.stator.api.UpdateTableRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * UpdateTable's GlobalSecondaryIndexUpdates: Create (the index starts CREATING and is backfilled),
 * Delete and Update (throughput), one create or delete per call as DynamoDB allows.
 */
public final class GlobalIndexUpdates {
  private GlobalIndexUpdates() {}

  /** The result of applying the updates: the new definition and the index created, if any. */
  public record Applied(TableDefinition table, IndexDefinition created, IndexDefinition deleted) {}

  static void constraints(Constraints c, UpdateTableRequest r) {
    List<GlobalSecondaryIndexUpdate> updates = r.globalSecondaryIndexUpdates();
    if (updates == null) {
      return;
    }
    for (int i = 0; i < updates.size(); i++) {
      GlobalSecondaryIndexUpdate u = updates.get(i);
      String p = "globalSecondaryIndexUpdates." + (i + 1) + ".member";
      if (u.create() != null) {
        CreateGlobalSecondaryIndexAction a = u.create();
        IndexValidation.constraints(
            c, p + ".create",
            new IndexValidation.Given(a.indexName(), a.keySchema(), a.projection(),
                a.provisionedThroughput(), a.onDemandThroughput()),
            true);
      }
      if (u.delete() != null) {
        c.notNull(p + ".delete.indexName", u.delete().indexName());
        c.name(p + ".delete.indexName", u.delete().indexName());
      }
      if (u.update() != null) {
        c.notNull(p + ".update.indexName", u.update().indexName());
        c.name(p + ".update.indexName", u.update().indexName());
        if (u.update().onDemandThroughput() == null) {
          c.notNull(p + ".update.provisionedThroughput", u.update().provisionedThroughput());
        }
      }
    }
  }

  /** Rules among the updates of one request, before the table is looked up. */
  static void checkRequest(UpdateTableRequest r) {
    List<GlobalSecondaryIndexUpdate> updates = r.globalSecondaryIndexUpdates();
    if (updates == null) {
      return;
    }
    Set<String> names = new HashSet<>();
    int createsAndDeletes = 0;
    for (GlobalSecondaryIndexUpdate u : updates) {
      int actions =
          (u.create() != null ? 1 : 0) + (u.update() != null ? 1 : 0)
              + (u.delete() != null ? 1 : 0);
      if (actions == 0) {
        throw IndexValidation.invalid(
            "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create,"
                + " GlobalSecondaryIndexUpdate.Delete must not be null");
      }
      String name =
          u.update() != null
              ? u.update().indexName()
              : u.create() != null ? u.create().indexName() : u.delete().indexName();
      if (!names.add(name)) {
        throw IndexValidation.invalid(
            "Only one global secondary index update per index is allowed simultaneously. Index: "
                + name);
      }
      if (u.create() != null || u.delete() != null) {
        createsAndDeletes++;
      }
    }
    if (createsAndDeletes > 1) {
      throw onlyOneOnlineIndexChange();
    }
  }

  /** Applies the index updates of a validated request to a table's definition. */
  public static Applied apply(TableDefinition table, UpdateTableRequest r) {
    List<IndexDefinition> indexes = new ArrayList<>(table.indexes());
    List<KeyAttribute> definitions = new ArrayList<>(table.attributeDefinitions());
    IndexDefinition created = null;
    IndexDefinition deleted = null;
    for (GlobalSecondaryIndexUpdate u : r.globalSecondaryIndexUpdates()) {
      if (u.create() != null) {
        CreateGlobalSecondaryIndexAction a = u.create();
        if (table.index(a.indexName()) != null) {
          throw DynamoDbException.validation(
              "One or more parameter values were invalid: Index already exists: "
                  + a.indexName());
        }
        for (IndexDefinition i : indexes) {
          if (i.global() && !i.isActive()) {
            throw onlyOneOnlineIndexChange();
          }
        }
        if (r.attributeDefinitions() != null) {
          for (AttributeDefinition d : r.attributeDefinitions()) {
            String known = table.attributeType(d.attributeName());
            if (known == null) {
              definitions.add(new KeyAttribute(d.attributeName(), d.attributeType()));
            } else if (!known.equals(d.attributeType())) {
              throw redefined(table, d.attributeName(), a, r.attributeDefinitions());
            }
          }
        }
        long globals = indexes.stream().filter(IndexDefinition::global).count();
        if (globals >= IndexValidation.MAX_GLOBAL_INDEXES) {
          throw IndexValidation.invalid(
              "GlobalSecondaryIndex count exceeds the per-table limit of "
                  + IndexValidation.MAX_GLOBAL_INDEXES);
        }
        created =
            IndexValidation.global(
                table.tableId(),
                new IndexValidation.Given(a.indexName(), a.keySchema(), a.projection(),
                    a.provisionedThroughput(), a.onDemandThroughput()),
                definitions,
                TableDefinition.PAY_PER_REQUEST.equals(table.billingMode()),
                IndexDefinition.CREATING);
        indexes.add(created);
        IndexValidation.checkNonKeyAttributes(indexes);
      } else if (u.delete() != null) {
        IndexDefinition index = table.index(u.delete().indexName());
        if (index == null || !index.global()) {
          throw notFound(u.delete().indexName());
        }
        indexes.remove(index);
        deleted = index;
      } else {
        IndexDefinition index = table.index(u.update().indexName());
        if (index == null || !index.global()) {
          throw notFound(u.update().indexName());
        }
        if (TableDefinition.PAY_PER_REQUEST.equals(table.billingMode())) {
          indexes.set(indexes.indexOf(index), index.withMaxThroughput(
              MaxThroughputValidation.updateIndex(index, u.update())));
          continue;
        }
        MaxThroughputValidation.refuseOnProvisionedIndex(
            u.update().onDemandThroughput(), index.name());
        var pt = u.update().provisionedThroughput();
        TableValidation.throughputBounds(pt);
        indexes.set(
            indexes.indexOf(index),
            index.withThroughput(pt.readCapacityUnits(), pt.writeCapacityUnits()));
      }
    }
    // DynamoDB keeps only the attribute definitions some key schema uses.
    List<KeyAttribute> used = new ArrayList<>();
    for (KeyAttribute d : definitions) {
      boolean isUsed = table.isKey(d.name());
      for (IndexDefinition i : indexes) {
        isUsed |= i.isKey(d.name());
      }
      if (isUsed) {
        used.add(d);
      }
    }
    return new Applied(table.withIndexes(indexes, used), created, deleted);
  }

  /**
   * A key attribute of the table or of an index given another type for a new index: every item
   * must have one type for it, so DynamoDB refuses, showing the key schema that defines the
   * attribute and the new index's, each element as {@code key{name:type:HASH}}.
   */
  private static DynamoDbException redefined(TableDefinition table, String attribute,
      CreateGlobalSecondaryIndexAction created, List<AttributeDefinition> given) {
    List<String> existing = new ArrayList<>();
    if (table.isKey(attribute)) {
      existing.add(element(table.hashKey(), "HASH"));
      if (table.rangeKey() != null) {
        existing.add(element(table.rangeKey(), "RANGE"));
      }
    } else {
      for (IndexDefinition i : table.indexes()) {
        if (i.isKey(attribute)) {
          i.hashKeys().forEach(k -> existing.add(element(k, "HASH")));
          i.rangeKeys().forEach(k -> existing.add(element(k, "RANGE")));
          break;
        }
      }
    }
    List<String> proposed = new ArrayList<>();
    for (var k : created.keySchema()) {
      String type = table.attributeType(k.attributeName());
      for (AttributeDefinition d : given) {
        if (d.attributeName().equals(k.attributeName())) {
          type = d.attributeType();
        }
      }
      proposed.add(element(new KeyAttribute(k.attributeName(), type), k.keyType()));
    }
    return IndexValidation.invalid("Attributes cannot be redefined. Please check that your"
        + " attribute has the same type as previously defined. Existing schema: Schema:["
        + String.join(", ", existing) + "] New schema: Schema:[" + String.join(", ", proposed)
        + "]");
  }

  private static String element(KeyAttribute key, String keyType) {
    return "SchemaElement: key{" + key.name() + ":" + key.type() + ":" + keyType + "}";
  }

  private static DynamoDbException notFound(String indexName) {
    return DynamoDbException.resourceNotFound(
        "Requested resource not found: Index: " + indexName + " not found");
  }

  private static DynamoDbException onlyOneOnlineIndexChange() {
    return new DynamoDbException(
        ErrorType.LimitExceededException,
        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously"
            + " per table");
  }
}
