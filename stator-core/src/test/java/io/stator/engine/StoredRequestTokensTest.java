package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.Put;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.capacity.ManualClock;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The stored ClientRequestTokens of applied transactions are deleted by the housekeeping once
 * past DynamoDB's 10-minute window, and kept until then.
 */
class StoredRequestTokensTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private final MemoryStorage storage = new MemoryStorage();
  private final Engine db = new Engine(storage, EngineOptions.defaults().withClock(clock));

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void tokensPastTheWindowAreDeletedAndTokensWithinItKept() {
    db.createTable(create("Orders", "id", "S", null, null));
    apply("first");
    clock.advance(Duration.ofMinutes(5));
    apply("second");
    clock.advance(Duration.ofMinutes(5)); // "first" is exactly ten minutes old: still in force
    assertThat(db.housekeepNow()).isTrue();
    assertThat(storedTokens()).containsExactlyInAnyOrder("first", "second");

    clock.advance(Duration.ofMillis(1));
    db.housekeepNow();
    assertThat(storedTokens()).containsExactly("second");
    apply("first"); // past the window the token is new again: applied, and stored anew
    assertThat(storedTokens()).containsExactlyInAnyOrder("first", "second");

    clock.advance(Duration.ofMinutes(5));
    db.housekeepNow();
    assertThat(storedTokens()).containsExactly("first");
    clock.advance(Duration.ofMinutes(10));
    db.housekeepNow();
    assertThat(storedTokens()).isEmpty();
  }

  private void apply(String token) {
    db.transactWriteItems(new TransactWriteItemsRequest(
        List.of(new TransactWriteItem(
            null, new Put(item("id", token), "Orders", null, null, null, null), null, null)),
        null, null, token));
  }

  private List<String> storedTokens() {
    return storage.scan(StoredRequestTokens.SPACE, null, null, null, 100).stream()
        .map(StoredRecord::key)
        .map(k -> new String(k.partition(), StandardCharsets.UTF_8))
        .toList();
  }
}
