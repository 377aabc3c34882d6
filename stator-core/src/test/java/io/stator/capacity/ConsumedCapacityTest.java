package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.Capacity;
import io.stator.api.ConsumedCapacity;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GetItemRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.ScanRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.item.ItemSize;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ConsumedCapacity of each operation, through the engine, for DynamoDB's size boundaries. */
class ConsumedCapacityTest {
  private Database db;

  @BeforeEach
  void open() {
    db = Stator.open(new MemoryStorage(),
        EngineOptions.defaults().withClock(new ManualClock(Instant.parse("2026-03-01T00:00:00Z"))));
    db.createTable(new CreateTableRequest(
        "Tbl",
        List.of(new AttributeDefinition("pk", "S"), new AttributeDefinition("sk", "N")),
        List.of(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("sk", "RANGE")),
        null, null, "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
  }

  @AfterEach
  void close() {
    db.close();
  }

  /** An item of exactly {@code size} bytes by DynamoDB's measure. */
  private static Map<String, AttributeValue> item(String pk, int sk, int size) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", new AttributeValue.S(pk));
    item.put("sk", new AttributeValue.N(Integer.toString(sk)));
    long keySize = ItemSize.of(item);
    item.put("d", new AttributeValue.S("x".repeat((int) (size - keySize - 1))));
    assertThat(ItemSize.of(item)).isEqualTo(size);
    return item;
  }

  private static Map<String, AttributeValue> key(String pk, int sk) {
    return Map.of("pk", new AttributeValue.S(pk), "sk", new AttributeValue.N(Integer.toString(sk)));
  }

  private ConsumedCapacity put(Map<String, AttributeValue> item, String rcc) {
    return db.putItem(new PutItemRequest("Tbl", item, null, null, null, null, rcc, null, null,
        null, null)).consumedCapacity();
  }

  private ConsumedCapacity get(Map<String, AttributeValue> key, boolean consistent) {
    return db.getItem(new GetItemRequest("Tbl", key, consistent, null, null, null, "TOTAL"))
        .consumedCapacity();
  }

  @Test
  void putItemTotalAndIndexesShapes() {
    assertThat(put(item("a", 1, 1024), "TOTAL"))
        .isEqualTo(new ConsumedCapacity("Tbl", 1.0, null, null, null, null, null));
    // 1.5 KB is two write units; INDEXES adds the table's own share.
    assertThat(put(item("a", 2, 1536), "INDEXES"))
        .isEqualTo(new ConsumedCapacity("Tbl", 2.0, null, null, new Capacity(null, null, 2.0),
            null, null));
    assertThat(put(item("a", 3, 100), "NONE")).isNull();
    assertThat(put(item("a", 4, 100), null)).isNull();
  }

  @Test
  void putItemPaysForTheLargerOfOldAndNew() {
    put(item("a", 1, 3000), null);
    assertThat(put(item("a", 1, 200), "TOTAL").capacityUnits()).isEqualTo(3.0);
    assertThat(put(item("a", 1, 2100), "TOTAL").capacityUnits()).isEqualTo(3.0);
  }

  @Test
  void getItemAtTheReadBoundaries() {
    int sk = 0;
    for (int size : new int[] {512, 1024, 2048, 4096}) {
      put(item("g", ++sk, size), null);
      assertThat(get(key("g", sk), true))
          .isEqualTo(new ConsumedCapacity("Tbl", 1.0, null, null, null, null, null));
      assertThat(get(key("g", sk), false).capacityUnits()).isEqualTo(0.5);
    }
    put(item("g", 99, 4097), null);
    assertThat(get(key("g", 99), true).capacityUnits()).isEqualTo(2.0);
    assertThat(get(key("g", 99), false).capacityUnits()).isEqualTo(1.0);
    // A missing item costs the minimum read.
    assertThat(get(key("missing", 1), false).capacityUnits()).isEqualTo(0.5);
    assertThat(get(key("missing", 1), true).capacityUnits()).isEqualTo(1.0);
  }

  @Test
  void getItemPaysForTheWholeItemWhateverTheProjection() {
    put(item("p", 1, 6000), null);
    ConsumedCapacity c = db.getItem(new GetItemRequest("Tbl", key("p", 1), true, "pk", null, null,
        "TOTAL")).consumedCapacity();
    assertThat(c.capacityUnits()).isEqualTo(2.0);
  }

  @Test
  void queryRoundsTheTotalOnceAndFiltersDoNotReduceIt() {
    // The guide's example: 80 items of 100 bytes, 8,000 bytes, 2 RCU strong and 1 eventual.
    for (int i = 0; i < 80; i++) {
      put(item("q", i, 100), null);
    }
    Map<String, AttributeValue> values = Map.of(":p", new AttributeValue.S("q"));
    ConsumedCapacity strong = db.query(new QueryRequest("Tbl", null, null, null, true, null, null,
        "pk = :p", null, null, null, values, "INDEXES", null, null, null, null))
        .consumedCapacity();
    assertThat(strong).isEqualTo(new ConsumedCapacity("Tbl", 2.0, null, null,
        new Capacity(null, null, 2.0), null, null));
    Map<String, AttributeValue> filtered = Map.of(":p", new AttributeValue.S("q"),
        ":none", new AttributeValue.S("nothing matches"));
    var eventual = db.query(new QueryRequest("Tbl", null, null, null, false, null, null,
        "pk = :p", "d = :none", null, null, filtered, "TOTAL", null, null, null, null));
    assertThat(eventual.count()).isZero();
    assertThat(eventual.consumedCapacity().capacityUnits()).isEqualTo(1.0);
    // An empty Query still costs the minimum.
    ConsumedCapacity empty = db.query(new QueryRequest("Tbl", null, null, null, false, null, null,
        "pk = :p", null, null, null, Map.of(":p", new AttributeValue.S("none")), "TOTAL", null,
        null, null, null)).consumedCapacity();
    assertThat(empty.capacityUnits()).isEqualTo(0.5);
  }

  @Test
  void scanRoundsTheTotalOnce() {
    for (int i = 0; i < 10; i++) {
      put(item("s" + i, i, 1000), null); // 10,000 bytes: 3 blocks
    }
    ConsumedCapacity c = db.scan(new ScanRequest("Tbl", null, null, null, true, null, null, null,
        null, null, null, null, "TOTAL", null, null, null)).consumedCapacity();
    assertThat(c.capacityUnits()).isEqualTo(3.0);
    assertThat(c.readCapacityUnits()).isNull();
  }

  @Test
  void deleteItemPaysForTheDeletedItemAtLeastOne() {
    put(item("d", 1, 2500), null);
    ConsumedCapacity deleted = db.deleteItem(new DeleteItemRequest("Tbl", key("d", 1), null, null,
        null, null, "TOTAL", null, null, null, null)).consumedCapacity();
    assertThat(deleted.capacityUnits()).isEqualTo(3.0);
    ConsumedCapacity nothing = db.deleteItem(new DeleteItemRequest("Tbl", key("d", 1), null, null,
        null, null, "TOTAL", null, null, null, null)).consumedCapacity();
    assertThat(nothing.capacityUnits()).isEqualTo(1.0);
  }

  @Test
  void updateItemPaysForTheLargerOfBeforeAndAfter() {
    put(item("u", 1, 2500), null);
    ConsumedCapacity c = db.updateItem(new UpdateItemRequest("Tbl", key("u", 1), "REMOVE d", null,
        null, null, null, "TOTAL", null, null, null, null, null)).consumedCapacity();
    assertThat(c).isEqualTo(new ConsumedCapacity("Tbl", 3.0, null, null, null, null, null));
    ConsumedCapacity grown = db.updateItem(new UpdateItemRequest("Tbl", key("u", 1),
        "SET d = :d", null, null, Map.of(":d", new AttributeValue.S("y".repeat(1500))), null,
        "TOTAL", null, null, null, null, null)).consumedCapacity();
    assertThat(grown.capacityUnits()).isEqualTo(2.0);
  }

  @Test
  void failedConditionalWritesStillConsume() {
    Engine engine = (Engine) db;
    // On a new item: 1 WCU.
    assertThatThrownBy(() -> db.putItem(new PutItemRequest("Tbl", item("c", 1, 3000),
        "attribute_exists(pk)", null, null, null, "TOTAL", null, null, null, null)))
        .isInstanceOf(DynamoDbException.class)
        .extracting(e -> ((DynamoDbException) e).type())
        .isEqualTo(ErrorType.ConditionalCheckFailedException);
    // On an existing 2.5 KB item: 3 WCU.
    put(item("c", 2, 2500), null);
    assertThatThrownBy(() -> db.deleteItem(new DeleteItemRequest("Tbl", key("c", 2),
        "attribute_not_exists(pk)", null, null, null, "TOTAL", null, null, null, null)))
        .isInstanceOf(DynamoDbException.class);
    PartitionReport.HotKey c = engine.partitions("Tbl").partitions().stream()
        .flatMap(p -> p.hotKeys().stream())
        .filter(k -> k.partitionKey().equals("c"))
        .findFirst()
        .orElseThrow();
    // 1 (failed put) + 3 (the successful 2.5 KB put) + 3 (failed delete).
    assertThat(c.writeUnits()).isEqualTo(7.0);
  }

  @Test
  void badReturnConsumedCapacityIsRefused() {
    assertThatThrownBy(() -> put(item("a", 1, 100), "ALL"))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageContaining("Value 'ALL' at 'returnConsumedCapacity' failed to satisfy"
            + " constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
  }
}
