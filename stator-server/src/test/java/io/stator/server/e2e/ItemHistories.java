package io.stator.server.e2e;

import io.stator.engine.LinearizabilityChecker;
import io.stator.engine.LinearizabilityChecker.ConditionalPut;
import io.stator.engine.LinearizabilityChecker.Entry;
import io.stator.engine.LinearizabilityChecker.Put;
import io.stator.engine.LinearizabilityChecker.Read;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * The histories of a few items of one table, made by clients that read, put and conditionally
 * put them at random (each put a value of its own), and checked item by item by the Wing–Gong
 * search of {@link LinearizabilityChecker}: what {@link ClusterServersCheck} and {@link
 * ClusterFaultsCheck} run across servers.
 *
 * <p>The clients must not retry: a write answered with an error other than a failed condition
 * may or may not have happened, which the checker cannot take, so its item's history is left
 * unchecked and counted; a read that failed, or a request whose connection was refused, changed
 * nothing and is only counted (as a failed request).
 */
final class ItemHistories {
  private final String table;
  private final int keys;
  private final Map<Integer, List<Entry>> histories = new HashMap<>();
  private final Map<Integer, String> unknown = new ConcurrentHashMap<>();
  private final AtomicLong values = new AtomicLong();
  private final AtomicInteger failedReads = new AtomicInteger();

  ItemHistories(String table, int keys) {
    this.table = table;
    this.keys = keys;
    for (int k = 0; k < keys; k++) {
      histories.put(k, Collections.synchronizedList(new ArrayList<>()));
    }
  }

  /** A client thread's own memory of the values it last saw, for its conditional puts. */
  static final class Client {
    private final int thread;
    private final DynamoDbClient dynamo;
    private final Map<Integer, Long> lastSeen = new HashMap<>();

    Client(int thread, DynamoDbClient dynamo) {
      this.thread = thread;
      this.dynamo = dynamo;
    }
  }

  /**
   * One operation of {@code client} on an item at random: a consistent read (40%), a put (30%)
   * or a put on the condition that the item holds what this client last saw of it (30%). True
   * when it was answered with success or a failed condition.
   */
  boolean step(Client client) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int k = random.nextInt(keys);
    AttributeValue id = AttributeValue.fromS("k" + k);
    double dice = random.nextDouble();
    long call = System.nanoTime();
    try {
      if (dice < 0.4) {
        Map<String, AttributeValue> item = client.dynamo.getItem(r -> r.tableName(table)
            .key(Map.of("id", id)).consistentRead(true)).item();
        long seen = value(item);
        client.lastSeen.put(k, seen);
        histories.get(k).add(new Entry(client.thread, call, System.nanoTime(), new Read(seen)));
      } else if (dice < 0.7) {
        long v = values.incrementAndGet();
        Map<String, AttributeValue> old = client.dynamo.putItem(r -> r.tableName(table)
            .item(Map.of("id", id, "v", n(v))).returnValues(ReturnValue.ALL_OLD)).attributes();
        histories.get(k).add(
            new Entry(client.thread, call, System.nanoTime(), new Put(v, value(old))));
      } else {
        long v = values.incrementAndGet();
        long expected = client.lastSeen.getOrDefault(k, LinearizabilityChecker.ABSENT);
        try {
          client.dynamo.putItem(r -> {
            r.tableName(table).item(Map.of("id", id, "v", n(v)))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
            if (expected == LinearizabilityChecker.ABSENT) {
              r.conditionExpression("attribute_not_exists(v)");
            } else {
              r.conditionExpression("v = :e").expressionAttributeValues(Map.of(":e", n(expected)));
            }
          });
          histories.get(k).add(new Entry(client.thread, call, System.nanoTime(),
              new ConditionalPut(v, expected, true, LinearizabilityChecker.UNKNOWN)));
        } catch (ConditionalCheckFailedException failed) {
          long old = failed.hasItem() ? value(failed.item()) : LinearizabilityChecker.ABSENT;
          client.lastSeen.put(k, old);
          histories.get(k).add(new Entry(client.thread, call, System.nanoTime(),
              new ConditionalPut(v, expected, false, old)));
        }
      }
      return true;
    } catch (RuntimeException e) {
      if (dice < 0.4 || refused(e)) {
        failedReads.incrementAndGet();
      } else {
        unknown.merge(k, e.getClass().getSimpleName() + ": " + e.getMessage(),
            (first, next) -> first);
      }
      return false;
    }
  }

  /**
   * Whether the request never reached a server: its connection was refused (a server killed or
   * not yet started), so a write was not applied and its item's history stays checkable.
   */
  private static boolean refused(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.net.ConnectException) {
        return true;
      }
    }
    return false;
  }

  /** What the check found; {@link #toString} is the line the checks print. */
  record Verdict(int operations, int items, int acknowledgedWrites, int unchecked,
      int failedReads, int anomalies, List<String> explanations) {
    @Override
    public String toString() {
      return String.format("%d operations on %d items; %d acknowledged writes verified; %d"
              + " histories unchecked (a write of unknown outcome), %d requests failed (reads, or"
              + " refused connections);"
              + " anomalies: %d", operations, items, acknowledgedWrites, unchecked, failedReads,
          anomalies);
    }
  }

  /** Checks each item's history once the clients are done; prints why a history was skipped. */
  Verdict check() {
    int operations = 0;
    int acknowledgedWrites = 0;
    int unchecked = 0;
    List<String> explanations = new ArrayList<>();
    for (Map.Entry<Integer, List<Entry>> h : histories.entrySet()) {
      List<Entry> history = new ArrayList<>(h.getValue());
      operations += history.size();
      if (unknown.containsKey(h.getKey())) {
        unchecked++;
        System.out.println("unchecked: item k" + h.getKey() + ", a write answered "
            + unknown.get(h.getKey()));
        continue;
      }
      acknowledgedWrites += (int) history.stream().filter(e -> !(e.op() instanceof Read))
          .filter(e -> !(e.op() instanceof ConditionalPut c) || c.applied()).count();
      LinearizabilityChecker.Verdict verdict =
          LinearizabilityChecker.check(history, LinearizabilityChecker.ABSENT);
      if (!verdict.linearizable()) {
        explanations.add("item k" + h.getKey() + ":\n" + verdict.explanation());
      }
    }
    for (String explanation : explanations) {
      System.out.println("not linearizable, " + explanation);
    }
    return new Verdict(operations, keys, acknowledgedWrites, unchecked, failedReads.get(),
        explanations.size(), explanations);
  }

  private static long value(Map<String, AttributeValue> item) {
    return item == null || item.isEmpty() ? LinearizabilityChecker.ABSENT
        : Long.parseLong(item.get("v").n());
  }

  private static AttributeValue n(long n) {
    return AttributeValue.fromN(Long.toString(n));
  }
}
