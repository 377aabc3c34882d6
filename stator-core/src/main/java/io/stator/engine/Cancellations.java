package io.stator.engine;

import io.stator.api.CancellationReason;
import io.stator.api.ThrottledException;
import io.stator.api.ThrottlingException;
import io.stator.api.TransactionCanceledException;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How DynamoDB cancels a transaction, for TransactWriteItems ({@link Transactions}) and
 * TransactGetItems ({@link TransactGets}) alike: a {@code TransactionCanceledException} with one
 * reason per action, None for every action but the one that caused it (a throttle, a conflict
 * with another write, a key that does not match its table), and the words DynamoDB gives each.
 */
final class Cancellations {
  private static final String CONFLICT_MESSAGE = "Transaction is ongoing for the item";

  /** The cancellation messages of a throttled action, as the API reference words them. */
  private static final String PROVISIONED_MESSAGE =
      "The level of configured provisioned throughput for the table was exceeded. Consider"
          + " increasing your provisioning level with the UpdateTable API.";

  private static final String ON_DEMAND_MESSAGE =
      "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically"
          + " scaling your table or index so please try again shortly. If exceptions persist,"
          + " check if you have a hot key:"
          + " https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
          + "bp-partition-key-design.html.";

  private Cancellations() {}

  /**
   * The cancellation of a transaction whose action {@code index} was throttled, with the code
   * and message the API reference gives for a provisioned or an on-demand table.
   */
  static TransactionCanceledException throttled(
      int actions, int index, TableDefinition table, ThrottledException e) {
    boolean onDemand = TableDefinition.PAY_PER_REQUEST.equals(table.billingMode());
    CancellationReason reason = onDemand
        // above a configured maximum the reason carries its own words, else the scaling ones
        ? new CancellationReason(null, "ThrottlingError",
            e instanceof ThrottlingException ? e.getMessage() : ON_DEMAND_MESSAGE)
        : new CancellationReason(null, "ProvisionedThroughputExceeded", PROVISIONED_MESSAGE);
    return cancelledAt(actions, index, reason);
  }

  /** A cancellation for one action's reason, every other action's reason None. */
  static TransactionCanceledException cancelledAt(
      int actions, int index, CancellationReason reason) {
    List<CancellationReason> reasons = new ArrayList<>(actions);
    for (int i = 0; i < actions; i++) {
      reasons.add(i == index ? reason : CancellationReason.NONE);
    }
    return new TransactionCanceledException(reasons);
  }

  /**
   * Checks an action's key map. An empty or oversized key value fails the whole request, as
   * DynamoDB checks values before it opens the transaction; a key that does not match the
   * table's schema (an attribute missing, extra or of another type) is found once the action
   * meets its table, so DynamoDB cancels the transaction with a ValidationError reason for that
   * action instead.
   */
  static void checkKey(TableDefinition table, Map<String, AttributeValue> key) {
    ItemKeys.checkValues(table, key);
    if (!ItemKeys.matchesSchema(table, key)) {
      throw new KeyMismatch(ItemKeys.SCHEMA_MISMATCH);
    }
  }

  /** An action whose key does not match its table's schema: its cancellation reason. */
  static final class KeyMismatch extends RuntimeException {
    KeyMismatch(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The first action whose key did not match its table. Every action is checked first, so a
   * request error in a later action (an empty key value, an unknown table) still wins over the
   * cancellation; then the first mismatch gets its ValidationError and the others None.
   */
  static final class Mismatches {
    private int index = -1;
    private String message;

    void note(int action, KeyMismatch e) {
      if (index < 0) {
        index = action;
        message = e.getMessage();
      }
    }

    void check(int actions) {
      if (index >= 0) {
        throw cancelledAt(actions, index, new CancellationReason(null, "ValidationError", message));
      }
    }
  }

  /**
   * TransactionConflict on the entry whose item changed under the transaction, None on the
   * others; shared by TransactWriteItems and TransactGetItems, which DynamoDB cancels alike.
   */
  static <T> TransactionCanceledException conflictOn(
      List<T> entries,
      Function<T, TableDefinition> table,
      Function<T, StorageKey> key,
      Commit.Expectation failed) {
    List<CancellationReason> reasons = new ArrayList<>(entries.size());
    for (T entry : entries) {
      boolean conflicting =
          table.apply(entry).space().equals(failed.space())
              && key.apply(entry).equals(failed.key());
      reasons.add(
          conflicting
              ? new CancellationReason(null, "TransactionConflict", CONFLICT_MESSAGE)
              : CancellationReason.NONE);
    }
    return new TransactionCanceledException(reasons);
  }

  /**
   * How DynamoDB shows a list of structures in a constraint message: Java's default {@code
   * toString} of each element, e.g. {@code [com.amazonaws.dynamodb.v20120810.TransactGetItem@1f]}.
   */
  static String shown(List<?> items, String shape) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append("com.amazonaws.dynamodb.v20120810.").append(shape).append('@')
          .append(Integer.toHexString(System.identityHashCode(items.get(i))));
    }
    return sb.append(']').toString();
  }
}
