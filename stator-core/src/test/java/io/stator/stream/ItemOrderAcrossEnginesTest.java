package io.stator.stream;

import static io.stator.stream.StreamsTest.create;
import static io.stator.stream.StreamsTest.item;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.PutItemRequest;
import io.stator.api.Record;
import io.stator.api.StreamSpecification;
import io.stator.engine.EngineOptions;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one storage, as two servers of a shared store, whose clocks are seconds apart
 * (A's ahead), and one item changed through each in turn, each change right after the other:
 * its stream records must come in the order of the changes, as DynamoDB orders the records of
 * one item, whichever server made them and whatever their clocks say. Numbered by the clocks,
 * B's record of each change would take a number below A's record of the change before it until
 * B's next reading of A's watermark, a tenth of a second later. (A put of an item deleted
 * through another engine just before has no stored item to number above: see docs/cassandra.md.)
 */
class ItemOrderAcrossEnginesTest {
  private static final int ROUNDS = 20;

  private final MemoryStorage storage = new MemoryStorage();
  private final EngineOptions options =
      EngineOptions.defaults().withTimeToLiveSweepInterval(Duration.ZERO);
  @AutoClose
  private final Database a = Stator.open(storage,
      options.withClock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(3))));
  @AutoClose
  private final Database b = Stator.open(storage, options);

  @Test
  void theRecordsOfOneItemChangedThroughTwoEnginesKeepTheOrderOfTheChanges() {
    a.createTable(create("tbl", new StreamSpecification(true, "NEW_IMAGE")));
    int change = 0;
    for (int round = 0; round < ROUNDS; round++) {
      put(a, ++change);
      put(b, ++change);
    }
    assertThat(changesInSequenceOrder()).isEqualTo(numbers(1, 2 * ROUNDS));
  }

  @Test
  void aDeleteThroughTheOtherEngineComesAfterTheChangeItDeletes() {
    a.createTable(create("tbl", new StreamSpecification(true, "NEW_IMAGE")));
    int change = 0;
    List<Integer> expected = new ArrayList<>();
    List<String> events = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      put(a, ++change);
      put(b, ++change);
      a.deleteItem(new DeleteItemRequest("tbl", item("pk", "x"), null, null, null, null, null,
          null, null, null, null));
      expected.addAll(List.of(change - 1, change));
      events.addAll(List.of("INSERT", "MODIFY", "REMOVE"));
    }
    List<Record> records = inSequenceOrder();
    assertThat(records).extracting(Record::eventName).isEqualTo(events);
    assertThat(changes(records)).isEqualTo(expected);
  }

  private List<Record> inSequenceOrder() {
    String arn = a.describeTable(new DescribeTableRequest("tbl")).table().latestStreamArn();
    List<Record> records = new ArrayList<>(StreamsTest.readAll(b, arn));
    records.sort(Comparator.comparing(r -> new BigInteger(r.dynamodb().sequenceNumber())));
    return records;
  }

  private List<Integer> changesInSequenceOrder() {
    return changes(inSequenceOrder());
  }

  /** The change number in each record's new image, for those with one. */
  private static List<Integer> changes(List<Record> records) {
    List<Integer> changes = new ArrayList<>();
    for (Record r : records) {
      Map<String, AttributeValue> image = r.dynamodb().newImage();
      if (image != null) {
        changes.add(Integer.parseInt(((AttributeValue.N) image.get("n")).value()));
      }
    }
    return changes;
  }

  private static List<Integer> numbers(int from, int to) {
    List<Integer> list = new ArrayList<>();
    for (int n = from; n <= to; n++) {
      list.add(n);
    }
    return list;
  }

  private static void put(Database db, int change) {
    Map<String, AttributeValue> item = item("pk", "x", "n", AttributeValue.n("" + change));
    db.putItem(new PutItemRequest(
        "tbl", item, null, null, null, null, null, null, null, null, null));
  }
}
