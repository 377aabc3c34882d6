package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.LinearizabilityChecker.ABSENT;
import static io.stator.engine.LinearizabilityChecker.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.CancellationReason;
import io.stator.api.ConditionCheck;
import io.stator.api.Database;
import io.stator.api.Delete;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.Get;
import io.stator.api.GetItemRequest;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactionCanceledException;
import io.stator.api.Update;
import io.stator.api.UpdateItemRequest;
import io.stator.engine.LinearizabilityChecker.ConditionalPut;
import io.stator.engine.LinearizabilityChecker.Entry;
import io.stator.engine.LinearizabilityChecker.Increment;
import io.stator.engine.LinearizabilityChecker.Op;
import io.stator.engine.LinearizabilityChecker.Read;
import io.stator.engine.LinearizabilityChecker.Verdict;
import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Single-item linearizability, tested: several threads run random GetItem (ConsistentRead),
 * PutItem, conditional PutItem, {@code SET v = v + :1} and DeleteItem on ONE key, recording when
 * each call started and returned and what it returned; {@link LinearizabilityChecker} then
 * searches for a linearization of the history. A variant mixes TransactWriteItems and
 * TransactGetItems on the same key. Each round uses a fresh key and a short history, so the
 * check stays fast while the rounds add up to thousands of concurrent operations.
 *
 * <p>Subclasses run the same workload on another storage (see the RocksDB module). The seed is
 * printed; {@code -Dstator.seed=N} replays a round's operation choices (not its timing).
 */
public class LinearizabilityTest {
  private static final String TABLE = "Register";
  private static final int THREADS = 4;
  private static final int OPS_PER_THREAD = 24;
  private static final int MIN_ROUNDS = 10;
  private static final int MAX_ROUNDS = 400;
  private static final long ROUNDS_NANOS = 2_500_000_000L;
  /** Every this many steps all threads meet, so that those steps overlap whatever the timing. */
  private static final int MEETING_EVERY = 4;

  @TempDir protected Path dir;

  /** The storage under test. */
  protected Storage open(Path dir) {
    return new MemoryStorage();
  }

  // ---- the checker can fail ----------------------------------------------------------------

  @Test
  void checkerRejectsAStaleReadAfterACompletedWrite() {
    List<Entry> history = List.of(
        new Entry(0, 0, 10, new LinearizabilityChecker.Put(1, UNKNOWN)),
        new Entry(0, 20, 30, new LinearizabilityChecker.Put(2, UNKNOWN)),
        new Entry(1, 40, 50, new Read(1)));
    Verdict verdict = LinearizabilityChecker.check(history, ABSENT);
    assertThat(verdict.linearizable()).isFalse();
    assertThat(verdict.explanation()).contains("longest linearizable prefix has 2");
  }

  @Test
  void checkerRejectsALostIncrement() {
    List<Entry> history = List.of(
        new Entry(0, 0, 10, new LinearizabilityChecker.Put(5, UNKNOWN)),
        new Entry(0, 20, 40, new Increment(true, 6)),
        new Entry(1, 25, 45, new Increment(true, 6)));
    assertThat(LinearizabilityChecker.check(history, ABSENT).linearizable()).isFalse();
  }

  @Test
  void checkerRejectsAConditionThatSawAValueNeverWritten() {
    List<Entry> history = List.of(
        new Entry(0, 0, 10, new ConditionalPut(7, ABSENT, true, UNKNOWN)),
        new Entry(1, 20, 30, new ConditionalPut(8, ABSENT, false, 9)));
    assertThat(LinearizabilityChecker.check(history, ABSENT).linearizable()).isFalse();
  }

  @Test
  void checkerAcceptsConcurrentOperationsInAnOrderOtherThanTheirInvocations() {
    // The read overlaps both writes and saw the first; the delete returned the second, so the
    // only linearization is put 1, read, put 2, delete: not the order of invocation.
    List<Entry> history = List.of(
        new Entry(0, 0, 100, new Read(1)),
        new Entry(1, 10, 20, new LinearizabilityChecker.Put(1, ABSENT)),
        new Entry(2, 15, 90, new LinearizabilityChecker.Put(2, 1)),
        new Entry(1, 95, 110, new LinearizabilityChecker.Delete(2)),
        new Entry(2, 120, 130, new Increment(false, UNKNOWN)));
    assertThat(LinearizabilityChecker.check(history, ABSENT).linearizable()).isTrue();
    // The same history with the read after the delete completed cannot be linearized.
    List<Entry> late = new ArrayList<>(history);
    late.set(0, new Entry(0, 115, 125, new Read(1)));
    assertThat(LinearizabilityChecker.check(late, ABSENT).linearizable()).isFalse();
  }

  // ---- the engine is linearizable ----------------------------------------------------------

  @Test
  void singleItemOperationsAreLinearizable() throws Exception {
    run(false);
  }

  @Test
  void singleItemOperationsAndTransactionsOnTheSameItemAreLinearizable() throws Exception {
    run(true);
  }

  private void run(boolean transactions) throws Exception {
    long seed = Long.getLong("stator.seed", System.nanoTime());
    String label = getClass().getSimpleName() + (transactions ? " with transactions" : "");
    Database db = Stator.open(open(dir));
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    Stats stats = new Stats();
    try {
      db.createTable(create(TABLE, "pk", "S", null, null));
      long start = System.nanoTime();
      int round = 0;
      while (round < MIN_ROUNDS
          || round < MAX_ROUNDS && System.nanoTime() - start < ROUNDS_NANOS) {
        List<Entry> history = round(db, pool, seed + round, round, transactions, stats);
        long checking = System.nanoTime();
        Verdict verdict = LinearizabilityChecker.check(history, ABSENT);
        stats.checkNanos += System.nanoTime() - checking;
        assertThat(verdict.linearizable())
            .as("%s, seed %d, round %d:%n%s", label, seed, round, verdict.explanation())
            .isTrue();
        stats.add(history);
        round++;
      }
      System.out.printf("%s: seed %d, %d rounds, %s%n", label, seed, round, stats);
      // The test is only worth something if operations did run concurrently, and if every kind
      // of outcome occurred.
      assertThat(stats.overlapping).as("operations overlapping another thread's").isPositive();
      assertThat(stats.conditionFailures).as("failed conditions").isPositive();
      assertThat(stats.applied).as("applied conditional writes").isPositive();
      if (transactions) {
        assertThat(stats.transactions).as("committed transactions").isPositive();
      }
    } finally {
      pool.shutdownNow();
      db.close();
    }
  }

  private List<Entry> round(
      Database db, ExecutorService pool, long seed, int round, boolean transactions, Stats stats)
      throws Exception {
    CyclicBarrier meeting = new CyclicBarrier(THREADS);
    List<Client> clients = new ArrayList<>();
    List<Future<List<Entry>>> futures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Client client = new Client(
          db, meeting, round, t, new SplittableRandom(seed * 31 + t), transactions);
      clients.add(client);
      futures.add(pool.submit(client::run));
    }
    List<Entry> history = new ArrayList<>();
    for (Future<List<Entry>> f : futures) {
      history.addAll(f.get());
    }
    // Atomicity on the side: each thread's side counter counts exactly its committed
    // transactions (a cancelled one must not have incremented it).
    for (Client client : clients) {
      Map<String, AttributeValue> side = db.getItem(new GetItemRequest(
          TABLE, key(client.side), true, null, null, null, null)).item();
      assertThat(side == null ? 0 : value(side, "n")).as("side counter of " + client.side)
          .isEqualTo(client.committed);
      stats.transactions += client.committed;
    }
    return history;
  }

  /**
   * One thread's workload on the round's key. At every {@link #MEETING_EVERY}th step the threads
   * meet at a barrier between noting their call times and calling, so each of those calls
   * overlaps the other threads' calls of the same step however the scheduler runs them (on two
   * busy cores a thread can otherwise run all its steps before another starts). A call's
   * interval then starts a little early, which only widens what the checker allows.
   */
  private static final class Client {
    private final Database db;
    private final CyclicBarrier meeting;
    private final String pk;
    private final String side;
    private final int thread;
    private final SplittableRandom random;
    private final boolean transactions;
    private final List<Entry> log = new ArrayList<>();
    private long lastSeen = ABSENT;
    private int written;
    private long committed;

    Client(Database db, CyclicBarrier meeting, int round, int thread, SplittableRandom random,
        boolean transactions) {
      this.db = db;
      this.meeting = meeting;
      this.pk = "k" + round;
      this.side = sideKey(round, thread);
      this.thread = thread;
      this.random = random;
      this.transactions = transactions;
    }

    List<Entry> run() throws Exception {
      try {
        for (int i = 0; i < OPS_PER_THREAD; i++) {
          step(i);
        }
      } catch (Exception | Error e) {
        meeting.reset(); // the other threads stop waiting for this one
        throw e;
      }
      return log;
    }

    private void step(int i) throws Exception {
      long call = System.nanoTime();
      if (i % MEETING_EVERY == 0) {
        meeting.await(30, TimeUnit.SECONDS);
      }
      Op op = transactions && random.nextInt(2) == 0 ? transaction() : singleOrConflict();
      long ret = System.nanoTime();
      if (op != null) {
        log.add(new Entry(thread, call, ret, op));
      }
    }

    /** A value no other operation of the round writes; increments stay below the next one. */
    private long unique() {
      return (thread + 1) * 1_000_000L + (++written) * 1_000L;
    }

    /**
     * A single-item operation; null when it met a running transaction and was rejected with
     * TransactionConflictException, as DynamoDB rejects it: it wrote and observed nothing, so it
     * has no place in the history. Only transactions can cause that.
     */
    private Op singleOrConflict() {
      try {
        return single();
      } catch (DynamoDbException e) {
        if (!transactions || e.type() != ErrorType.TransactionConflictException) {
          throw e;
        }
        assertThat(e.getMessage()).isEqualTo("Transaction is ongoing for the item");
        return null;
      }
    }

    private Op single() {
      int choice = random.nextInt(100);
      if (choice < 25) {
        Map<String, AttributeValue> item =
            db.getItem(new GetItemRequest(TABLE, key(pk), true, null, null, null, null)).item();
        return new Read(seen(item));
      }
      if (choice < 40) {
        boolean allOld = random.nextBoolean();
        long v = unique();
        Map<String, AttributeValue> old = db.putItem(new PutItemRequest(
            TABLE, item(pk, v), null, null, null, allOld ? "ALL_OLD" : null, null, null, null,
            null, null)).attributes();
        return new LinearizabilityChecker.Put(v, allOld ? seen(old) : UNKNOWN);
      }
      if (choice < 60) {
        long v = unique();
        long expected = random.nextInt(3) == 0 ? ABSENT : lastSeen;
        String condition = expected == ABSENT ? "attribute_not_exists(v)" : "v = :e";
        Map<String, AttributeValue> values =
            expected == ABSENT ? null : Map.of(":e", AttributeValue.n(Long.toString(expected)));
        try {
          db.putItem(new PutItemRequest(
              TABLE, item(pk, v), condition, null, values, null, null, null, "ALL_OLD", null,
              null));
          return new ConditionalPut(v, expected, true, UNKNOWN);
        } catch (DynamoDbException e) {
          if (e.type() != ErrorType.ConditionalCheckFailedException) {
            throw e;
          }
          return new ConditionalPut(v, expected, false, seen(e.item()));
        }
      }
      if (choice < 80) {
        try {
          Map<String, AttributeValue> updated = db.updateItem(new UpdateItemRequest(
              TABLE, key(pk), "SET v = v + :one", null, null,
              Map.of(":one", AttributeValue.n("1")), "UPDATED_NEW", null, null, null, null, null,
              null)).attributes();
          return new Increment(true, seen(updated));
        } catch (DynamoDbException e) {
          if (e.type() != ErrorType.ValidationException
              || !e.getMessage().contains("does not exist in the item")) {
            throw e;
          }
          return new Increment(false, UNKNOWN);
        }
      }
      Map<String, AttributeValue> old = db.deleteItem(new DeleteItemRequest(
          TABLE, key(pk), null, null, null, "ALL_OLD", null, null, null, null, null))
          .attributes();
      return new LinearizabilityChecker.Delete(seen(old));
    }

    /**
     * A transaction with one action on the round's key and an increment of this thread's side
     * counter, or a TransactGetItems of both. Returns null when it was cancelled by a conflict
     * (it had no effect and observed nothing).
     */
    private Op transaction() {
      int choice = random.nextInt(100);
      if (choice < 20) {
        try {
          Map<String, AttributeValue> item = db.transactGetItems(new TransactGetItemsRequest(
              List.of(new TransactGetItem(new Get(key(pk), TABLE, null, null)),
                  new TransactGetItem(new Get(key(side), TABLE, null, null))),
              null)).responses().get(0).item();
          return new Read(seen(item));
        } catch (TransactionCanceledException e) {
          return null;
        }
      }
      long v = unique();
      long expected = random.nextInt(3) == 0 ? ABSENT : lastSeen;
      String condition = expected == ABSENT ? "attribute_not_exists(v)" : "v = :e";
      Map<String, AttributeValue> values =
          expected == ABSENT ? null : Map.of(":e", AttributeValue.n(Long.toString(expected)));
      TransactWriteItem action;
      Op op;
      if (choice < 35) {
        action = new TransactWriteItem(
            null, new Put(item(pk, v), TABLE, null, null, null, null), null, null);
        op = new LinearizabilityChecker.Put(v, UNKNOWN);
      } else if (choice < 55) {
        action = new TransactWriteItem(
            null, new Put(item(pk, v), TABLE, condition, null, values, "ALL_OLD"), null, null);
        op = new ConditionalPut(v, expected, true, UNKNOWN);
      } else if (choice < 65) {
        action = new TransactWriteItem(
            new ConditionCheck(key(pk), TABLE, condition, null, values, "ALL_OLD"), null, null,
            null);
        op = new ConditionalPut(ABSENT, expected, true, UNKNOWN);
      } else if (choice < 85) {
        action = new TransactWriteItem(null, null, null, new Update(
            key(pk), "SET v = v + :one", TABLE, null, null,
            Map.of(":one", AttributeValue.n("1")), null));
        op = new Increment(true, UNKNOWN);
      } else {
        action = new TransactWriteItem(
            null, null, new Delete(key(pk), TABLE, null, null, null, null), null);
        op = new LinearizabilityChecker.Delete(UNKNOWN);
      }
      TransactWriteItem sideIncrement = new TransactWriteItem(null, null, null, new Update(
          key(side), "SET n = if_not_exists(n, :zero) + :one", TABLE, null, null,
          Map.of(":zero", AttributeValue.n("0"), ":one", AttributeValue.n("1")), null));
      List<TransactWriteItem> actions = random.nextBoolean()
          ? List.of(action, sideIncrement)
          : List.of(sideIncrement, action);
      int mine = actions.indexOf(action);
      try {
        db.transactWriteItems(new TransactWriteItemsRequest(actions, null, null, null));
        committed++;
        return op;
      } catch (TransactionCanceledException e) {
        CancellationReason reason = e.cancellationReasons().get(mine);
        CancellationReason other = e.cancellationReasons().get(1 - mine);
        assertThat(other.code()).isIn("None", "TransactionConflict");
        switch (reason.code()) {
          case "ConditionalCheckFailed" -> {
            ConditionalPut c = (ConditionalPut) op;
            return new ConditionalPut(c.value(), c.expected(), false, seen(reason.item()));
          }
          case "ValidationError" -> {
            assertThat(op).isInstanceOf(Increment.class);
            assertThat(reason.message()).contains("does not exist in the item");
            return new Increment(false, UNKNOWN);
          }
          case "TransactionConflict", "None" -> {
            assertThat(reason.code().equals("None") ? other.code() : reason.code())
                .isEqualTo("TransactionConflict");
            return null;
          }
          default -> throw e;
        }
      }
    }

    /** The value of {@code v} in a returned item (or ABSENT); remembered for conditions. */
    private long seen(Map<String, AttributeValue> item) {
      long v = item == null ? ABSENT : value(item, "v");
      if (v != ABSENT) {
        lastSeen = v;
      }
      return v;
    }
  }

  private static String sideKey(int round, int thread) {
    return "side" + round + "." + thread;
  }

  private static Map<String, AttributeValue> key(String pk) {
    return Map.of("pk", AttributeValue.s(pk));
  }

  private static Map<String, AttributeValue> item(String pk, long v) {
    return Map.of("pk", AttributeValue.s(pk), "v", AttributeValue.n(Long.toString(v)));
  }

  private static long value(Map<String, AttributeValue> item, String name) {
    return Long.parseLong(((AttributeValue.N) item.get(name)).value());
  }

  /** What the run exercised, so that a run that tested nothing fails. */
  private static final class Stats {
    long operations;
    long overlapping;
    long conditionFailures;
    long applied;
    long transactions;
    long checkNanos;

    void add(List<Entry> history) {
      operations += history.size();
      for (Entry e : history) {
        for (Entry o : history) {
          if (o.thread() != e.thread() && o.call() < e.ret() && e.call() < o.ret()) {
            overlapping++;
            break;
          }
        }
        if (e.op() instanceof ConditionalPut c) {
          if (c.applied()) {
            applied++;
          } else {
            conditionFailures++;
          }
        }
      }
    }

    @Override
    public String toString() {
      return String.format("%d operations checked, %d overlapping another thread's, %d failed"
          + " conditions, %d applied conditional writes, %d committed transactions; checking"
          + " took %d ms",
          operations, overlapping, conditionFailures, applied, transactions,
          checkNanos / 1_000_000);
    }
  }
}
