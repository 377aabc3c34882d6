package io.stator.ttl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeTimeToLiveRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GetItemRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.PutItemRequest;
import io.stator.api.TimeToLiveDescription;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.engine.EngineOptions;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** UpdateTimeToLive, DescribeTimeToLive and forced sweeps on the engine, with a moved clock. */
class TimeToLiveTest {
  static final Instant START = Instant.parse("2026-03-01T12:00:00Z");

  final MutableClock clock = new MutableClock(START);
  final MemoryStorage storage = new MemoryStorage();
  final Database db =
      Stator.open(
          storage,
          EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO));

  @AfterEach
  void close() {
    db.close();
  }

  // ---- UpdateTimeToLive and DescribeTimeToLive -----------------------------------------------

  @Test
  void aNewTableHasTimeToLiveDisabled() {
    createTable("Sessions");
    assertThat(describe("Sessions")).isEqualTo(new TimeToLiveDescription("DISABLED", null));
  }

  @Test
  void enablingShowsStatusAndAttributeAtOnce() {
    createTable("Sessions");
    TimeToLiveSpecification spec = new TimeToLiveSpecification(true, "expiresAt");
    assertThat(db.updateTimeToLive(new UpdateTimeToLiveRequest("Sessions", spec))
            .timeToLiveSpecification())
        .isEqualTo(spec);
    assertThat(describe("Sessions")).isEqualTo(new TimeToLiveDescription("ENABLED", "expiresAt"));
  }

  @Test
  void aSecondChangeWithinAnHourIsRefused() {
    createTable("Sessions");
    update("Sessions", true, "expiresAt");
    clock.advance(Duration.ofMinutes(59));
    assertValidation(
        "Time to live has been modified multiple times within a fixed interval",
        () -> update("Sessions", false, "expiresAt"));
    assertThat(describe("Sessions").timeToLiveStatus()).isEqualTo("ENABLED");
    clock.advance(Duration.ofMinutes(1));
    update("Sessions", false, "expiresAt");
    assertThat(describe("Sessions")).isEqualTo(new TimeToLiveDescription("DISABLED", null));
    assertValidation(
        "Time to live has been modified multiple times within a fixed interval",
        () -> update("Sessions", true, "ttl"));
    clock.advance(Duration.ofHours(2));
    update("Sessions", true, "ttl");
    assertThat(describe("Sessions")).isEqualTo(new TimeToLiveDescription("ENABLED", "ttl"));
  }

  @Test
  void changesThatContradictTheSettingAreRefusedWhateverTheTime() {
    createTable("Sessions");
    assertValidation(
        "TimeToLive is already disabled", () -> update("Sessions", false, "expiresAt"));
    update("Sessions", true, "expiresAt");
    assertValidation("TimeToLive is already enabled", () -> update("Sessions", true, "expiresAt"));
    assertValidation(
        "TimeToLive is active on a different AttributeName: current AttributeName is expiresAt",
        () -> update("Sessions", true, "other"));
    clock.advance(Duration.ofHours(3));
    assertValidation(
        "TimeToLive is active on a different AttributeName: current AttributeName is expiresAt",
        () -> update("Sessions", false, "other"));
    assertValidation("TimeToLive is already enabled", () -> update("Sessions", true, "expiresAt"));
  }

  @Test
  void requestConstraints() {
    createTable("Sessions");
    assertValidation(
        "1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy"
            + " constraint: Member must not be null",
        () -> db.updateTimeToLive(new UpdateTimeToLiveRequest("Sessions", null)));
    assertValidation(
        "2 validation errors detected: Value null at 'timeToLiveSpecification.attributeName'"
            + " failed to satisfy constraint: Member must not be null; Value null at"
            + " 'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be"
            + " null",
        () -> db.updateTimeToLive(
            new UpdateTimeToLiveRequest("Sessions", new TimeToLiveSpecification(null, null))));
    assertValidation(
        "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed"
            + " to satisfy constraint: Member must have length greater than or equal to 1",
        () -> update("Sessions", true, ""));
    String tooLong = "a".repeat(256);
    assertValidation(
        "1 validation error detected: Value '" + tooLong + "' at"
            + " 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must"
            + " have length less than or equal to 255",
        () -> update("Sessions", true, tooLong));
    update("Sessions", true, "a".repeat(255));
    assertValidation(
        "1 validation error detected: Value null at 'tableName' failed to satisfy constraint:"
            + " Member must not be null",
        () -> db.describeTimeToLive(new DescribeTimeToLiveRequest(null)));
    assertValidation(
        "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint:"
            + " Member must have length greater than or equal to 3",
        () -> update("ab", true, "ttl"));
    assertValidation(
        "1 validation error detected: Value 'a b' at 'tableName' failed to satisfy constraint:"
            + " Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        () -> db.describeTimeToLive(new DescribeTimeToLiveRequest("a b")));
  }

  @Test
  void unknownTable() {
    for (ThrowingCallable call :
        List.<ThrowingCallable>of(
            () -> update("Missing", true, "ttl"),
            () -> db.describeTimeToLive(new DescribeTimeToLiveRequest("Missing")))) {
      assertThatThrownBy(call)
          .isInstanceOfSatisfying(
              DynamoDbException.class,
              e -> assertThat(e.type()).isEqualTo(ErrorType.ResourceNotFoundException))
          .hasMessage("Requested resource not found: Table: Missing not found");
    }
  }

  @Test
  void theSettingSurvivesAReopenAndIsGoneWithTheTable() {
    createTable("Sessions");
    update("Sessions", true, "expiresAt");
    Database again = Stator.open(storage, EngineOptions.defaults().withClock(clock));
    assertThat(again.describeTimeToLive(new DescribeTimeToLiveRequest("Sessions"))
            .timeToLiveDescription())
        .isEqualTo(new TimeToLiveDescription("ENABLED", "expiresAt"));
    // the one-hour rule survives too: the time of the last change is kept
    assertValidation(
        "Time to live has been modified multiple times within a fixed interval",
        () -> again.updateTimeToLive(new UpdateTimeToLiveRequest(
            "Sessions", new TimeToLiveSpecification(false, "expiresAt"))));
    db.deleteTable(new DeleteTableRequest("Sessions"));
    createTable("Sessions");
    assertThat(describe("Sessions").timeToLiveStatus()).isEqualTo("DISABLED");
    update("Sessions", true, "expiresAt"); // a new table: no interval to wait
    again.close();
  }

  // ---- sweeping ------------------------------------------------------------------------------

  @Test
  void aSweepDeletesExactlyTheExpiredItems() {
    createTable("Sessions");
    update("Sessions", true, "expiresAt");
    long now = START.getEpochSecond();
    put("expired", AttributeValue.n(Long.toString(now - 10)));
    put("expiredFraction", AttributeValue.n(now - 1 + ".5"));
    put("fourYearsAgo", AttributeValue.n(Long.toString(now - 4L * 365 * 86400)));
    put("future", AttributeValue.n(Long.toString(now + 3600)));
    put("rightNow", AttributeValue.n(Long.toString(now)));
    put("sixYearsAgo", AttributeValue.n(Long.toString(now - 6L * 365 * 86400)));
    put("notANumber", AttributeValue.s(Long.toString(now - 10)));
    put("aSet", AttributeValue.ns(List.of(Long.toString(now - 10))));
    put("noAttribute", null);
    put("inMilliseconds", AttributeValue.n(Long.toString((now - 10) * 1000)));

    // expired items stay readable until swept
    assertThat(exists("expired")).isTrue();
    assertThat(sweep(db)).isEqualTo(3);
    assertThat(exists("expired")).isFalse();
    assertThat(exists("expiredFraction")).isFalse();
    assertThat(exists("fourYearsAgo")).isFalse();
    for (String kept :
        List.of("future", "rightNow", "sixYearsAgo", "notANumber", "aSet", "noAttribute",
            "inMilliseconds")) {
      assertThat(exists(kept)).as(kept).isTrue();
    }
    assertThat(sweep(db)).isZero();

    clock.advance(Duration.ofHours(2));
    assertThat(sweep(db)).isEqualTo(2); // future and rightNow
    assertThat(exists("future")).isFalse();
    assertThat(exists("rightNow")).isFalse();
  }

  @Test
  void tablesWithoutTimeToLiveAreNotSwept() {
    createTable("Sessions");
    createTable("Plain");
    update("Sessions", true, "expiresAt");
    long past = START.getEpochSecond() - 10;
    put("Sessions", "a", AttributeValue.n(Long.toString(past)));
    put("Plain", "a", AttributeValue.n(Long.toString(past)));
    assertThat(sweep(db)).isEqualTo(1);
    assertThat(exists("Plain", "a")).isTrue();

    put("Sessions", "b", AttributeValue.n(Long.toString(past)));
    clock.advance(Duration.ofHours(1));
    update("Sessions", false, "expiresAt");
    assertThat(sweep(db)).isZero();
    assertThat(exists("Sessions", "b")).isTrue();
  }

  @Test
  void aSweepWalksLargeTablesPageByPage() {
    createTable("Sessions");
    update("Sessions", true, "expiresAt");
    long past = START.getEpochSecond() - 10;
    int count = TimeToLiveSweeper.PAGE_SIZE * 3 + 7;
    for (int i = 0; i < count; i++) {
      put("Sessions", "k" + i, AttributeValue.n(Long.toString(i % 2 == 0 ? past : past + 100)));
    }
    assertThat(sweep(db)).isEqualTo((count + 1) / 2);
    for (int i = 0; i < count; i++) {
      assertThat(exists("Sessions", "k" + i)).isEqualTo(i % 2 != 0);
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  void createTable(String name) {
    db.createTable(new CreateTableRequest(
        name, List.of(new AttributeDefinition("id", "S")),
        List.of(new KeySchemaElement("id", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
        null, null, null, null, null, null));
  }

  void update(String table, Boolean enabled, String attribute) {
    db.updateTimeToLive(
        new UpdateTimeToLiveRequest(table, new TimeToLiveSpecification(enabled, attribute)));
  }

  TimeToLiveDescription describe(String table) {
    return db.describeTimeToLive(new DescribeTimeToLiveRequest(table)).timeToLiveDescription();
  }

  void put(String id, AttributeValue expiresAt) {
    put("Sessions", id, expiresAt);
  }

  void put(String table, String id, AttributeValue expiresAt) {
    Map<String, AttributeValue> item =
        expiresAt == null
            ? Map.of("id", AttributeValue.s(id))
            : Map.of("id", AttributeValue.s(id), "expiresAt", expiresAt);
    db.putItem(new PutItemRequest(table, item, null, null, null, null, null, null, null, null,
        null));
  }

  boolean exists(String id) {
    return exists("Sessions", id);
  }

  boolean exists(String table, String id) {
    return db.getItem(new GetItemRequest(table, Map.of("id", AttributeValue.s(id)), null, null,
            null, null, null))
        .item() != null;
  }

  static void assertValidation(String message, ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException))
        .hasMessage(message);
  }

  static long sweep(Database db) {
    return ((ExpiredItemSweep) db).sweepExpiredItems();
  }
}
