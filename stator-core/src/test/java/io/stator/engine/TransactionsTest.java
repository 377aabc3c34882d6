package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchGetItemResponse;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.CancellationReason;
import io.stator.api.ConditionCheck;
import io.stator.api.Database;
import io.stator.api.Delete;
import io.stator.api.DeleteRequest;
import io.stator.api.ErrorType;
import io.stator.api.Get;
import io.stator.api.KeysAndAttributes;
import io.stator.api.Put;
import io.stator.api.PutRequest;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactionCanceledException;
import io.stator.api.Update;
import io.stator.api.WriteRequest;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Batches and transactions on the engine, and the bank-transfer invariant under concurrency. */
class TransactionsTest extends EngineTest {

  @BeforeEach
  void tables() {
    db.createTable(create("Accounts", "id", "S", null, null));
    db.createTable(create("Events", "pk", "S", "sk", "N"));
  }

  // ---- batches ------------------------------------------------------------------------------

  @Test
  void batchWriteThenBatchGetAcrossTablesWithProjection() {
    db.batchWriteItem(new BatchWriteItemRequest(Map.of(
        "Accounts", List.of(
            putReq(item("id", "a", "balance", 1, "owner", "Ann")),
            putReq(item("id", "b", "balance", 2, "owner", "Bob"))),
        "Events", List.of(putReq(item("pk", "a", "sk", 1, "what", "open")))), null, null));
    BatchGetItemResponse r = db.batchGetItem(new BatchGetItemRequest(Map.of(
        "Accounts", new KeysAndAttributes(
            List.of(item("id", "a"), item("id", "b"), item("id", "missing")),
            null, true, "#o", Map.of("#o", "owner")),
        "Events", new KeysAndAttributes(
            List.of(item("pk", "a", "sk", 1)), null, null, null, null)), null));
    assertThat(r.responses().get("Accounts"))
        .containsExactlyInAnyOrder(item("owner", "Ann"), item("owner", "Bob"));
    assertThat(r.responses().get("Events"))
        .containsExactly(item("pk", "a", "sk", 1, "what", "open"));
    assertThat(r.unprocessedKeys()).isEmpty();

    db.batchWriteItem(new BatchWriteItemRequest(Map.of(
        "Accounts", List.of(new WriteRequest(null, new DeleteRequest(item("id", "a"))))),
        null, null));
    assertThat(db.getItem(Fixtures.get("Accounts", item("id", "a"))).item()).isNull();
    assertThat(db.getItem(Fixtures.get("Accounts", item("id", "b"))).item()).isNotNull();
  }

  @Test
  void batchWriteValidatesEveryRequestBeforeWritingAny() {
    expect(() -> db.batchWriteItem(new BatchWriteItemRequest(Map.of("Accounts", List.of(
            putReq(item("id", "ok")), putReq(item("nokey", "x")))), null, null)),
        ErrorType.ValidationException, "The provided key element does not match the schema");
    expect(() -> db.batchWriteItem(new BatchWriteItemRequest(Map.of("Accounts", List.of(
            putReq(item("id", "dup")),
            new WriteRequest(null, new DeleteRequest(item("id", "dup"))))), null, null)),
        ErrorType.ValidationException, "Provided list of item keys contains duplicates");
    assertThat(db.getItem(Fixtures.get("Accounts", item("id", "ok"))).item()).isNull();
    assertThat(db.getItem(Fixtures.get("Accounts", item("id", "dup"))).item()).isNull();
  }

  @Test
  void batchGetLimitsAndDuplicates() {
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      keys.add(item("id", "k" + i));
    }
    List<Map<String, AttributeValue>> more = new ArrayList<>();
    for (int i = 0; i < 41; i++) {
      more.add(item("pk", "k", "sk", i));
    }
    expect(() -> db.batchGetItem(new BatchGetItemRequest(Map.of(
            "Accounts", new KeysAndAttributes(keys, null, null, null, null),
            "Events", new KeysAndAttributes(more, null, null, null, null)), null)),
        ErrorType.ValidationException, "Too many items requested for the BatchGetItem call");
    expect(() -> db.batchGetItem(new BatchGetItemRequest(Map.of(
            "Accounts", new KeysAndAttributes(
                List.of(item("id", "x"), item("id", "x")), null, null, null, null)), null)),
        ErrorType.ValidationException, "Provided list of item keys contains duplicates");
  }

  @Test
  void batchGetStopsAt16MegabytesAndReturnsTheRestAsUnprocessedKeys() {
    String big = "x".repeat(390 * 1024);
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      put(db, "Accounts", item("id", "big" + i, "payload", big));
      keys.add(item("id", "big" + i));
    }
    BatchGetItemResponse r = db.batchGetItem(new BatchGetItemRequest(Map.of(
        "Accounts", new KeysAndAttributes(keys, null, true, null, null)), null));
    int read = r.responses().get("Accounts").size();
    assertThat(read).isBetween(40, 42); // 16 MB of 390 KB items
    KeysAndAttributes rest = r.unprocessedKeys().get("Accounts");
    assertThat(rest.keys()).hasSize(50 - read);
    assertThat(rest.consistentRead()).isTrue();
    BatchGetItemResponse second = db.batchGetItem(
        new BatchGetItemRequest(r.unprocessedKeys(), null));
    assertThat(second.responses().get("Accounts")).hasSize(50 - read);
    assertThat(second.unprocessedKeys()).isEmpty();
  }

  // ---- TransactWriteItems -------------------------------------------------------------------

  @Test
  void transactWriteAppliesAllActionsOrNone() {
    put(db, "Accounts", item("id", "a", "balance", 10));
    put(db, "Accounts", item("id", "gone", "balance", 0));
    put(db, "Accounts", item("id", "b", "balance", 5));
    db.transactWriteItems(write(
        new TransactWriteItem(null, null, null, debit("a", 3)),
        new TransactWriteItem(null, new Put(item("pk", "a", "sk", 1, "amount", 3), "Events",
            "attribute_not_exists(pk)", null, null, null), null, null),
        new TransactWriteItem(null, null, new Delete(item("id", "gone"), "Accounts", null, null,
            null, null), null)));
    assertThat(balance("a")).isEqualTo(7);
    assertThat(db.getItem(Fixtures.get("Events", item("pk", "a", "sk", 1))).item()).isNotNull();
    assertThat(db.getItem(Fixtures.get("Accounts", item("id", "gone"))).item()).isNull();

    // The second action fails: the first is not applied; reasons in request order, ALL_OLD item.
    TransactionCanceledException e = catchThrowableOfType(TransactionCanceledException.class,
        () -> db.transactWriteItems(write(
            new TransactWriteItem(null, null, null, debit("a", 1)),
            new TransactWriteItem(new ConditionCheck(item("id", "b"), "Accounts",
                "balance > :min", null, Map.of(":min", AttributeValue.n("100")), "ALL_OLD"),
                null, null, null),
            check("nobody", "attribute_exists(id)"))));
    assertThat(e.getMessage()).isEqualTo("Transaction cancelled, please refer cancellation"
        + " reasons for specific reasons [None, ConditionalCheckFailed, ConditionalCheckFailed]");
    assertThat(e.cancellationReasons()).containsExactly(
        CancellationReason.NONE,
        new CancellationReason(item("id", "b", "balance", 5), "ConditionalCheckFailed",
            "The conditional request failed"),
        new CancellationReason(null, "ConditionalCheckFailed", "The conditional request failed"));
    assertThat(balance("a")).isEqualTo(7);
  }

  /** An Update of a missing item starts from its key and creates nothing with REMOVE alone. */
  @Test
  void anUpdateOfAMissingItemStartsFromItsKeyAsUpdateItemDoes() {
    db.transactWriteItems(write(new TransactWriteItem(null, null, null,
        new Update(item("id", "new"), "SET twin = id", "Accounts", null, null, null, null))));
    assertThat(db.getItem(Fixtures.get("Accounts", item("id", "new"))).item()).isEqualTo(item("id", "new", "twin", "new"));
    db.transactWriteItems(write(new TransactWriteItem(null, null, null,
        new Update(item("id", "none"), "REMOVE balance", "Accounts", null, null, null, null))));
    assertThat(db.getItem(Fixtures.get("Accounts", item("id", "none"))).item()).isNull();
  }

  @Test
  void updateErrorsThatDependOnTheItemAreValidationErrorReasons() {
    put(db, "Accounts", item("id", "s", "balance", "not a number"));
    TransactionCanceledException e = catchThrowableOfType(TransactionCanceledException.class,
        () -> db.transactWriteItems(write(
            new TransactWriteItem(null, null, null, credit("s", 1)))));
    assertThat(e.cancellationReasons()).hasSize(1);
    assertThat(e.cancellationReasons().get(0).code()).isEqualTo("ValidationError");
    assertThat(e.cancellationReasons().get(0).message()).isNotBlank();
  }

  @Test
  void malformedRequestsAreValidationExceptions() {
    expect(() -> db.transactWriteItems(write(check("a", "attribute_exists(id)"),
            new TransactWriteItem(null, null, new Delete(item("id", "a"), "Accounts", null, null,
                null, null), null))),
        ErrorType.ValidationException,
        "Transaction request cannot include multiple operations on one item");
    expect(() -> db.transactWriteItems(write(new TransactWriteItem(null, null, null, null))),
        ErrorType.ValidationException,
        "TransactItems can only contain one of Check, Put, Update or Delete");
    expect(() -> db.transactWriteItems(write(new TransactWriteItem(null, null, null,
            new Update(item("id", "a"), "SET id = :v", "Accounts", null, null,
                Map.of(":v", AttributeValue.s("b")), null)))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Cannot update attribute id. This attribute"
            + " is part of the key");
    expect(() -> db.transactWriteItems(write(new TransactWriteItem(null, new Put(
            item("id", "a"), "Nope", null, null, null, null), null, null))),
        ErrorType.ResourceNotFoundException, "Requested resource not found");
    List<TransactWriteItem> many = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      many.add(check("k" + i, "attribute_exists(id)"));
    }
    TableOperationsTest.expect(
        () -> db.transactWriteItems(new TransactWriteItemsRequest(many, null, null, null)),
        ErrorType.ValidationException,
        catchThrowableOfType(io.stator.api.DynamoDbException.class,
            () -> db.transactWriteItems(new TransactWriteItemsRequest(many, null, null, null)))
            .getMessage());
    assertThat(catchThrowableOfType(io.stator.api.DynamoDbException.class,
        () -> db.transactWriteItems(new TransactWriteItemsRequest(many, null, null, null)))
        .getMessage()).startsWith("1 validation error detected: Value '[com.amazonaws")
        .endsWith("at 'transactItems' failed to satisfy constraint: Member must have length"
            + " less than or equal to 100");
  }

  @Test
  void clientRequestTokenMakesARetryIdempotent() {
    MutableClock clock = new MutableClock();
    Database timed = Stator.open(new MemoryStorage(),
        new EngineOptions("us-east-1", "000000000000", clock));
    timed.createTable(create("Accounts", "id", "S", null, null));
    timed.putItem(Fixtures.putRequest("Accounts", item("id", "a", "balance", 10), null));
    TransactWriteItemsRequest once = new TransactWriteItemsRequest(
        List.of(new TransactWriteItem(null, null, null, debit("a", 4))), null, null, "token-1");
    timed.transactWriteItems(once);
    timed.transactWriteItems(once); // same token, same request: success, not applied again
    assertThat(timed.getItem(Fixtures.get("Accounts", item("id", "a"))).item().get("balance"))
        .isEqualTo(AttributeValue.n("6"));
    expect(() -> timed.transactWriteItems(new TransactWriteItemsRequest(
            List.of(new TransactWriteItem(null, null, null, debit("a", 5))), null, null,
            "token-1")),
        ErrorType.IdempotentParameterMismatchException,
        "The request uses the same client token as a previous, but non-identical request.");
    clock.advance(Duration.ofMinutes(11)); // the window is over: the token is new again
    timed.transactWriteItems(once);
    assertThat(timed.getItem(Fixtures.get("Accounts", item("id", "a"))).item().get("balance"))
        .isEqualTo(AttributeValue.n("2"));
  }

  @Test
  void aTokenAppliedThroughOneEngineIsKnownToAnotherOnTheSameStorage() {
    MemoryStorage storage = new MemoryStorage();
    Database first = Stator.open(storage);
    Database second = Stator.open(storage); // another server of a shared store, or a restart
    first.createTable(create("Accounts", "id", "S", null, null));
    first.putItem(Fixtures.putRequest("Accounts", item("id", "a", "balance", 10), null));
    TransactWriteItemsRequest once = new TransactWriteItemsRequest(
        List.of(new TransactWriteItem(null, null, null, debit("a", 4))), null, null, "shared");
    first.transactWriteItems(once);
    second.transactWriteItems(once); // the retry reaches the other engine: not applied again
    assertThat(second.getItem(Fixtures.get("Accounts", item("id", "a"))).item().get("balance"))
        .isEqualTo(AttributeValue.n("6"));
    expect(() -> second.transactWriteItems(new TransactWriteItemsRequest(
            List.of(new TransactWriteItem(null, null, null, debit("a", 5))), null, null,
            "shared")),
        ErrorType.IdempotentParameterMismatchException,
        "The request uses the same client token as a previous, but non-identical request.");
    first.transactWriteItems(once); // the mismatch left the token as it was
    assertThat(first.getItem(Fixtures.get("Accounts", item("id", "a"))).item().get("balance"))
        .isEqualTo(AttributeValue.n("6"));
  }

  @Test
  void cancelledTransactionForgetsItsToken() {
    TransactWriteItemsRequest failing = new TransactWriteItemsRequest(
        List.of(check("nobody", "attribute_exists(id)")), null, null, "token-2");
    catchThrowableOfType(TransactionCanceledException.class,
        () -> db.transactWriteItems(failing));
    // Runs again (and fails again) instead of answering success.
    assertThat(catchThrowableOfType(TransactionCanceledException.class,
        () -> db.transactWriteItems(failing))).isNotNull();
  }

  // ---- TransactGetItems ---------------------------------------------------------------------

  @Test
  void transactGetReadsInRequestOrderWithProjections() {
    put(db, "Accounts", item("id", "a", "balance", 1, "owner", "Ann"));
    var r = db.transactGetItems(new TransactGetItemsRequest(List.of(
        new TransactGetItem(new Get(item("id", "missing"), "Accounts", null, null)),
        new TransactGetItem(new Get(item("id", "a"), "Accounts", "#o", Map.of("#o", "owner")))),
        null));
    assertThat(r.responses()).hasSize(2);
    assertThat(r.responses().get(0).item()).isNull();
    assertThat(r.responses().get(1).item()).isEqualTo(item("owner", "Ann"));
  }

  // ---- concurrency --------------------------------------------------------------------------

  /**
   * Bank transfers with a conditional debit on several threads, and readers taking
   * TransactGetItems snapshots of all accounts: money is conserved, no balance goes negative,
   * and every snapshot sees the total.
   */
  @Test
  void bankTransfersConserveMoneyAndSnapshotsSeeTheInvariant() throws Exception {
    int accounts = 8;
    long initial = 100;
    for (int i = 0; i < accounts; i++) {
      put(db, "Accounts", item("id", "acc" + i, "balance", initial));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger committed = new AtomicInteger();
    AtomicInteger snapshots = new AtomicInteger();
    AtomicInteger cancelledSnapshots = new AtomicInteger();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(new Thread(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
          int from = random.nextInt(accounts);
          int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
          int amount = 1 + random.nextInt(40);
          try {
            db.transactWriteItems(write(
                new TransactWriteItem(null, null, null, debit("acc" + from, amount)),
                new TransactWriteItem(null, null, null, credit("acc" + to, amount))));
            committed.incrementAndGet();
          } catch (TransactionCanceledException e) {
            // insufficient funds or a conflict: nothing applied
          } catch (Throwable e) {
            failures.add(e);
          }
        }
      }));
    }
    threads.add(new Thread(() -> {
      List<TransactGetItem> gets = new ArrayList<>();
      for (int i = 0; i < accounts; i++) {
        gets.add(new TransactGetItem(new Get(item("id", "acc" + i), "Accounts", null, null)));
      }
      while (!stop.get()) {
        try {
          var r = db.transactGetItems(new TransactGetItemsRequest(gets, null));
          long total = 0;
          for (var response : r.responses()) {
            long b = Long.parseLong(((AttributeValue.N) response.item().get("balance")).value());
            if (b < 0) {
              failures.add(new AssertionError("negative balance in a snapshot: " + b));
            }
            total += b;
          }
          if (total != accounts * initial) {
            failures.add(new AssertionError("snapshot total " + total));
          }
          snapshots.incrementAndGet();
        } catch (TransactionCanceledException e) {
          cancelledSnapshots.incrementAndGet(); // too much contention: DynamoDB cancels too
        } catch (Throwable e) {
          failures.add(e);
        }
      }
    }));
    threads.forEach(Thread::start);
    // At least three seconds, and on until the threads did enough for the checks below, however
    // slowly a busy machine runs them: a count reached in a fixed time measures the machine.
    long least = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() - deadline < 0
        && (System.nanoTime() - least < 0 || committed.get() <= 100
            || spec.contendedRounds() >= 1 && snapshots.get() <= 10)) {
      Thread.sleep(20);
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(failures).isEmpty();
    assertThat(committed.get()).isGreaterThan(100);
    // Every snapshot that succeeded saw the invariant (checked above). How many succeed is the
    // storage's: on one where TransactGetItems reads one key per round trip (Cassandra, until the
    // SPI has a multi-key read) a snapshot of eight items under four writers rarely holds, and
    // DynamoDB too may cancel it as a TransactionConflict, so only a local storage must succeed.
    if (spec.contendedRounds() >= 1) {
      assertThat(snapshots.get())
          .as("snapshots (%d cancelled)", cancelledSnapshots.get())
          .isGreaterThan(10);
    }
    // On every storage, a snapshot once the writers are done succeeds and sees the total.
    List<TransactGetItem> all = new ArrayList<>();
    for (int i = 0; i < accounts; i++) {
      all.add(new TransactGetItem(new Get(item("id", "acc" + i), "Accounts", null, null)));
    }
    long seen = 0;
    for (var response : db.transactGetItems(new TransactGetItemsRequest(all, null)).responses()) {
      seen += Long.parseLong(((AttributeValue.N) response.item().get("balance")).value());
    }
    assertThat(seen).isEqualTo((long) accounts * initial);
    long total = 0;
    for (int i = 0; i < accounts; i++) {
      long b = balance("acc" + i);
      assertThat(b).isNotNegative();
      total += b;
    }
    assertThat(total).isEqualTo(accounts * initial);
  }

  /** A clock tests move by hand. */
  static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2024-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private static TransactWriteItem check(String id, String condition) {
    return new TransactWriteItem(
        new ConditionCheck(item("id", id), "Accounts", condition, null, null, null),
        null, null, null);
  }

  private static Update debit(String id, int amount) {
    return new Update(item("id", id), "SET balance = balance - :x", "Accounts",
        "balance >= :x", null, Map.of(":x", AttributeValue.n(String.valueOf(amount))), null);
  }

  private static Update credit(String id, int amount) {
    return new Update(item("id", id), "SET balance = balance + :x", "Accounts",
        null, null, Map.of(":x", AttributeValue.n(String.valueOf(amount))), null);
  }

  private static TransactWriteItemsRequest write(TransactWriteItem... items) {
    return new TransactWriteItemsRequest(List.of(items), null, null, null);
  }

  private static WriteRequest putReq(Map<String, AttributeValue> item) {
    return new WriteRequest(new PutRequest(item), null);
  }

  private long balance(String id) {
    return Long.parseLong(((AttributeValue.N) db.getItem(
        Fixtures.get("Accounts", item("id", id))).item().get("balance")).value());
  }
}
