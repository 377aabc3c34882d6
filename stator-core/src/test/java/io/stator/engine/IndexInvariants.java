package io.stator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.Database;
import io.stator.api.DescribeTableRequest;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListTablesRequest;
import io.stator.api.ListTablesResponse;
import io.stator.api.LocalSecondaryIndexDescription;
import io.stator.api.ProvisionedThroughputExceededException;
import io.stator.api.Projection;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.TableDescription;
import io.stator.api.ThrottlingException;
import io.stator.item.ItemSize;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants every test leaves behind, checked through the API alone: each secondary index,
 * global or local, holds exactly the projection of its table's items that carry the index's key
 * attributes (of their defined types, not empty, within DynamoDB's 2048 and 1024 bytes: an index
 * added to a table leaves out the items it finds otherwise), one entry per item, with the
 * projected attributes the index's projection names.
 * Tests call it after they run (Caffeine's validation interceptor pattern), so a write path that
 * leaves an index behind fails whichever test exercised it, not only the index tests.
 *
 * <p>Global indexes are read after {@link Engine#awaitIndexes}; a GSI still being created or
 * backfilled is skipped, as is a table the capacity model throttles while it is read (a test of
 * throttling may leave its table without capacity, under a clock that does not move).
 */
public final class IndexInvariants {
  private IndexInvariants() {}

  /** Checks every index of every table. */
  public static void checkAll(Database db) {
    String start = null;
    do {
      ListTablesResponse page = db.listTables(new ListTablesRequest(start, null));
      for (String table : page.tableNames()) {
        check(db, table);
      }
      start = page.lastEvaluatedTableName();
    } while (start != null);
  }

  /** Checks every index of {@code table}; a table that no longer exists passes. */
  public static void check(Database db, String table) {
    if (db instanceof Engine engine) {
      try {
        assertThat(engine.awaitIndexes(Duration.ofSeconds(60)))
            .as("the indexes of %s caught up", table)
            .isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    TableDescription description;
    try {
      description = db.describeTable(new DescribeTableRequest(table)).table();
    } catch (io.stator.api.DynamoDbException e) {
      return; // deleted by the test
    }
    if (!"ACTIVE".equals(description.tableStatus())) {
      return;
    }
    try {
      List<Map<String, AttributeValue>> items = scanAll(db, table, null);
      List<String> tableKey = names(description.keySchema());
      Map<String, String> types = new HashMap<>();
      description.attributeDefinitions().forEach(d -> types.put(d.attributeName(),
          d.attributeType()));
      if (description.globalSecondaryIndexes() != null) {
        for (GlobalSecondaryIndexDescription gsi : description.globalSecondaryIndexes()) {
          if ("ACTIVE".equals(gsi.indexStatus()) && !Boolean.TRUE.equals(gsi.backfilling())) {
            checkIndex(db, table, gsi.indexName(), tableKey, gsi.keySchema(), types,
                gsi.projection(), items);
          }
        }
      }
      if (description.localSecondaryIndexes() != null) {
        for (LocalSecondaryIndexDescription lsi : description.localSecondaryIndexes()) {
          checkIndex(db, table, lsi.indexName(), tableKey, lsi.keySchema(), types,
              lsi.projection(), items);
        }
      }
    } catch (ProvisionedThroughputExceededException | ThrottlingException e) {
      // out of capacity under a test's clock: nothing can be read to check
    }
  }

  private static void checkIndex(
      Database db, String table, String index, List<String> tableKey,
      List<KeySchemaElement> keySchema, Map<String, String> types, Projection projection,
      List<Map<String, AttributeValue>> items) {
    List<String> indexKey = names(keySchema);
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> expected = new HashMap<>();
    for (Map<String, AttributeValue> item : items) {
      if (indexable(item, keySchema, types)) {
        expected.put(pick(item, tableKey), project(item, tableKey, indexKey, projection));
      }
    }
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> actual = new HashMap<>();
    for (Map<String, AttributeValue> entry : scanAll(db, table, index)) {
      Map<String, AttributeValue> previous = actual.put(pick(entry, tableKey), entry);
      assertThat(previous)
          .as("index %s of %s has one entry per item, not two for %s", index, table,
              pick(entry, tableKey))
          .isNull();
    }
    assertThat(actual)
        .as("index %s of %s is the projection of its table's items", index, table)
        .isEqualTo(expected);
  }

  /** Whether the item's index key values are all there, of their types, and indexable. */
  private static boolean indexable(Map<String, AttributeValue> item,
      List<KeySchemaElement> keySchema, Map<String, String> types) {
    for (KeySchemaElement k : keySchema) {
      AttributeValue v = item.get(k.attributeName());
      if (v == null || !v.type().equals(types.get(k.attributeName()))) {
        return false;
      }
      boolean text = v instanceof AttributeValue.S || v instanceof AttributeValue.B;
      long size = text ? ItemSize.of(v) : 0;
      if (text && (size == 0 || size > ("HASH".equals(k.keyType()) ? 2048 : 1024))) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, AttributeValue> project(
      Map<String, AttributeValue> item, List<String> tableKey, List<String> indexKey,
      Projection projection) {
    if ("ALL".equals(projection.projectionType())) {
      return item;
    }
    Set<String> names = new HashSet<>(tableKey);
    names.addAll(indexKey);
    if ("INCLUDE".equals(projection.projectionType()) && projection.nonKeyAttributes() != null) {
      names.addAll(projection.nonKeyAttributes());
    }
    Map<String, AttributeValue> projected = new HashMap<>();
    for (String name : names) {
      AttributeValue value = item.get(name);
      if (value != null) {
        projected.put(name, value);
      }
    }
    return projected;
  }

  private static Map<String, AttributeValue> pick(
      Map<String, AttributeValue> item, List<String> names) {
    Map<String, AttributeValue> picked = new HashMap<>();
    for (String name : names) {
      picked.put(name, item.get(name));
    }
    return picked;
  }

  private static List<String> names(List<KeySchemaElement> keySchema) {
    List<String> names = new ArrayList<>();
    for (KeySchemaElement element : keySchema) {
      names.add(element.attributeName());
    }
    return names;
  }

  private static List<Map<String, AttributeValue>> scanAll(
      Database db, String table, String index) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      ScanResponse page =
          db.scan(
              new ScanRequest(
                  table, index, null, null, index == null ? Boolean.TRUE : null, start, null,
                  null, null, null, null, null, null, null, null, null));
      items.addAll(page.items());
      start = page.lastEvaluatedKey();
    } while (start != null);
    return items;
  }
}
