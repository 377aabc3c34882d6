package io.stator.stream;

import static io.stator.stream.StreamsTest.create;
import static io.stator.stream.StreamsTest.item;
import static io.stator.stream.StreamsTest.readAll;
import static io.stator.stream.StreamsTest.text;
import static java.util.stream.Collectors.groupingBy;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.DescribeTableRequest;
import io.stator.api.PutItemRequest;
import io.stator.api.Record;
import io.stator.api.StreamSpecification;
import io.stator.capacity.ManualClock;
import io.stator.engine.EngineOptions;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one storage, as two servers of a shared store, writing to one stream in the
 * same millisecond: a clock both share, frozen, so that numbers from each engine's clock alone
 * would collide.
 */
class StreamWritersTest {
  private static final int ITEMS = 5;
  private static final int ROUNDS = 3;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryStorage storage = new MemoryStorage();
  private final EngineOptions options =
      EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO);
  private final Database a = Stator.open(storage, options);
  private final Database b = Stator.open(storage, options);

  @AfterEach
  void close() {
    try {
      a.close();
    } finally {
      b.close();
    }
  }

  @Test
  void recordsOfTwoEnginesInOneMillisecondAreNumberedApartAndReadableThroughBoth() {
    a.createTable(create("tbl", new StreamSpecification(true, "NEW_AND_OLD_IMAGES")));
    String arn = b.describeTable(new DescribeTableRequest("tbl")).table().latestStreamArn();
    Instant made = clock.instant();
    for (int round = 0; round < ROUNDS; round++) {
      for (int i = 0; i < ITEMS; i++) {
        put(a, item("pk", "a" + i, "round", "" + round));
        put(b, item("pk", "b" + i, "round", "" + round));
      }
    }

    // A reader settles its own engine's numbers only: another engine's records of this very
    // millisecond are readable once the reader's clock has passed it.
    clock.advance(Duration.ofMillis(1));
    List<Record> throughA = readAll(a, arn);
    List<Record> throughB = readAll(b, arn);
    assertThat(throughB).isEqualTo(throughA);
    assertThat(throughA).hasSize(2 * ITEMS * ROUNDS);
    List<String> numbers = throughA.stream().map(r -> r.dynamodb().sequenceNumber()).toList();
    assertThat(numbers).doesNotHaveDuplicates()
        .allSatisfy(n -> assertThat(n).hasSize(21).containsOnlyDigits());
    assertThat(throughA).extracting(Record::eventID).doesNotHaveDuplicates();
    assertThat(throughA).allSatisfy(r ->
        assertThat(r.dynamodb().approximateCreationDateTime()).isEqualTo(made));

    // Each item's records, in sequence number order, are its changes in the order made.
    Map<String, List<Record>> byItem =
        throughA.stream().collect(groupingBy(r -> text(r.dynamodb().keys())));
    assertThat(byItem).hasSize(2 * ITEMS);
    for (List<Record> records : byItem.values()) {
      List<Record> ordered = records.stream()
          .sorted(Comparator.comparing(r -> r.dynamodb().sequenceNumber())).toList();
      assertThat(ordered).extracting(Record::eventName).containsExactly("INSERT", "MODIFY", "MODIFY");
      assertThat(ordered).extracting(r -> r.dynamodb().newImage().get("round"))
          .containsExactly(AttributeValue.s("0"), AttributeValue.s("1"), AttributeValue.s("2"));
    }
  }

  private static void put(Database db, Map<String, AttributeValue> item) {
    db.putItem(new PutItemRequest(
        "tbl", item, null, null, null, null, null, null, null, null, null));
  }
}
