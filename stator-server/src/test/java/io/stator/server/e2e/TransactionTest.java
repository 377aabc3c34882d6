package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * TransactWriteItems and TransactGetItems through the AWS SDK: atomicity, cancellation reasons,
 * validation, idempotency, projections, and the bank-transfer invariant under concurrency.
 */
class TransactionTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  private static TransactWriteItem update(String table, String id, String expression,
      String condition, Map<String, AttributeValue> values) {
    return TransactWriteItem.builder().update(Update.builder().tableName(table)
        .key(item("id", s(id))).updateExpression(expression).conditionExpression(condition)
        .expressionAttributeValues(values).build()).build();
  }

  private static TransactWriteItem debit(String table, String id, int amount) {
    return update(table, id, "SET balance = balance - :x", "balance >= :x",
        Map.of(":x", n(String.valueOf(amount))));
  }

  private static TransactWriteItem credit(String table, String id, int amount) {
    return update(table, id, "SET balance = balance + :x", null,
        Map.of(":x", n(String.valueOf(amount))));
  }

  private static TransactWriteItem check(String table, String id, String condition) {
    return TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table)
        .key(item("id", s(id))).conditionExpression(condition).build()).build();
  }

  private static TransactWriteItem put(String table, Map<String, AttributeValue> item) {
    return TransactWriteItem.builder()
        .put(Put.builder().tableName(table).item(item).build()).build();
  }

  private Map<String, AttributeValue> get(String table, String id) {
    return dynamo.getItem(r -> r.tableName(table).key(item("id", s(id)))).item();
  }

  @Test
  void allActionsApplyTogether() {
    String accounts = createTable("tx-apply", "id", S);
    String log = createTable("tx-log", "pk", S, "sk", N);
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("a"), "balance", n("10"))));
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("b"), "balance", n("0"))));
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("old"))));
    dynamo.transactWriteItems(r -> r.transactItems(
        debit(accounts, "a", 4),
        credit(accounts, "b", 4),
        TransactWriteItem.builder().put(Put.builder().tableName(log)
            .item(item("pk", s("a"), "sk", n("1"), "amount", n("4")))
            .conditionExpression("attribute_not_exists(pk)").build()).build(),
        TransactWriteItem.builder().delete(Delete.builder().tableName(accounts)
            .key(item("id", s("old"))).build()).build()));
    assertThat(get(accounts, "a").get("balance")).isEqualTo(n("6"));
    assertThat(get(accounts, "b").get("balance")).isEqualTo(n("4"));
    assertThat(dynamo.getItem(r -> r.tableName(log).key(item("pk", s("a"), "sk", n("1"))))
        .hasItem()).isTrue();
    assertThat(dynamo.getItem(r -> r.tableName(accounts).key(item("id", s("old")))).hasItem())
        .isFalse();
  }

  @Test
  void aFailedConditionCancelsEverythingWithReasonsInOrder() {
    String accounts = createTable("tx-cancel", "id", S);
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("a"), "balance", n("10"))));
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("b"), "balance", n("1"))));
    TransactionCanceledException e = assertError(TransactionCanceledException.class,
        "TransactionCanceledException",
        "Transaction cancelled, please refer cancellation reasons for specific reasons"
            + " [None, ConditionalCheckFailed, ConditionalCheckFailed]",
        () -> dynamo.transactWriteItems(r -> r.transactItems(
            credit(accounts, "a", 5),
            TransactWriteItem.builder().conditionCheck(ConditionCheck.builder()
                .tableName(accounts).key(item("id", s("b")))
                .conditionExpression("balance > :min")
                .expressionAttributeValues(Map.of(":min", n("100")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build()).build(),
            check(accounts, "nobody", "attribute_exists(id)"))));
    List<CancellationReason> reasons = e.cancellationReasons();
    assertThat(reasons).hasSize(3);
    assertThat(reasons.get(0).code()).isEqualTo("None");
    assertThat(reasons.get(0).message()).isNull();
    assertThat(reasons.get(1).code()).isEqualTo("ConditionalCheckFailed");
    assertThat(reasons.get(1).message()).isEqualTo("The conditional request failed");
    assertThat(reasons.get(1).item()).isEqualTo(item("id", s("b"), "balance", n("1")));
    assertThat(reasons.get(2).code()).isEqualTo("ConditionalCheckFailed");
    assertThat(reasons.get(2).hasItem()).isFalse();
    assertThat(get(accounts, "a").get("balance")).as("nothing applied").isEqualTo(n("10"));
  }

  @Test
  void anUpdateThatFailsOnTheItemIsAValidationErrorReason() {
    String accounts = createTable("tx-verr", "id", S);
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("a"), "balance", s("text"))));
    TransactionCanceledException e = assertErrorContaining(TransactionCanceledException.class,
        "TransactionCanceledException", "[ValidationError]",
        () -> dynamo.transactWriteItems(r -> r.transactItems(credit(accounts, "a", 1))));
    assertThat(e.cancellationReasons().get(0).code()).isEqualTo("ValidationError");
  }

  @Test
  void malformedTransactionsAreValidationExceptions() {
    String accounts = createTable("tx-invalid", "id", S);
    assertValidation("Transaction request cannot include multiple operations on one item",
        () -> dynamo.transactWriteItems(r -> r.transactItems(
            check(accounts, "a", "attribute_exists(id)"), credit(accounts, "a", 1))));
    assertValidation("TransactItems can only contain one of Check, Put, Update or Delete",
        () -> dynamo.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
            .conditionCheck(ConditionCheck.builder().tableName(accounts).key(item("id", s("a")))
                .conditionExpression("attribute_exists(id)").build())
            .put(Put.builder().tableName(accounts).item(item("id", s("b"))).build()).build())));
    List<TransactWriteItem> many = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      many.add(check(accounts, "k" + i, "attribute_exists(id)"));
    }
    assertValidationContaining("at 'transactItems' failed to satisfy constraint: Member must"
            + " have length less than or equal to 100",
        () -> dynamo.transactWriteItems(r -> r.transactItems(many)));
    assertValidation("One or more parameter values were invalid: Cannot update attribute id."
            + " This attribute is part of the key",
        () -> dynamo.transactWriteItems(r -> r.transactItems(
            update(accounts, "a", "SET id = :v", null, Map.of(":v", s("b"))))));
    assertValidation("Item size has exceeded the maximum allowed size",
        () -> dynamo.transactWriteItems(r -> r.transactItems(
            put(accounts, item("id", s("big"), "blob", s(repeat("x", 400 * 1024)))))));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> dynamo.transactWriteItems(r -> r.transactItems(
            put("no-such-table", item("id", s("a"))))));
    assertThat(dynamo.getItem(r -> r.tableName(accounts).key(item("id", s("b")))).hasItem())
        .isFalse();
  }

  /**
   * A key that does not match its table (an attribute missing, extra or of another type) is
   * found once the action meets its table: DynamoDB cancels the transaction with a
   * ValidationError reason for the first such action and None for the others. An empty key
   * value is checked before that, so it fails the whole request.
   */
  @Test
  void aKeyThatDoesNotMatchItsTableCancelsWithAValidationErrorReason() {
    String accounts = createTable("tx-keys", "id", S);
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("a"), "balance", n("10"))));
    String mismatch = "The provided key element does not match the schema";
    assertCancelledAt(1, "One or more parameter values were invalid: Missing the key id in the"
            + " item",
        credit(accounts, "a", 5), put(accounts, item("other", s("x"))));
    assertCancelledAt(0, "One or more parameter values were invalid: Type mismatch for key id"
            + " expected: S actual: N",
        put(accounts, item("id", n("1"))), credit(accounts, "a", 5));
    assertCancelledAt(1, mismatch, check(accounts, "a", "attribute_exists(id)"),
        TransactWriteItem.builder().delete(Delete.builder().tableName(accounts)
            .key(item("id", n("1"))).build()).build());
    assertCancelledAt(0, mismatch,
        TransactWriteItem.builder().update(Update.builder().tableName(accounts)
            .key(item("id", s("a"), "extra", s("x"))).updateExpression("SET balance = :v")
            .expressionAttributeValues(Map.of(":v", n("0"))).build()).build(),
        TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(accounts)
            .key(item("id", l(s("a")))).conditionExpression("attribute_exists(id)").build())
            .build());
    assertThat(get(accounts, "a").get("balance")).as("nothing applied").isEqualTo(n("10"));

    String empty = "One or more parameter values are not valid. The AttributeValue for a key"
        + " attribute cannot contain an empty string value. Key: id";
    assertValidation(empty, () -> dynamo.transactWriteItems(r -> r.transactItems(
        put(accounts, item("other", s("x"))), check(accounts, "", "attribute_exists(id)"))));
    assertValidation(empty, () -> dynamo.transactWriteItems(r -> r.transactItems(
        put(accounts, item("id", s(""))))));

    TransactionCanceledException e = assertErrorContaining(TransactionCanceledException.class,
        "TransactionCanceledException", "[None, ValidationError]",
        () -> dynamo.transactGetItems(r -> r.transactItems(
            TransactGetItem.builder().get(Get.builder().tableName(accounts)
                .key(item("id", s("a"))).build()).build(),
            TransactGetItem.builder().get(Get.builder().tableName(accounts)
                .key(Map.of()).build()).build())));
    assertThat(e.cancellationReasons().get(1).message()).isEqualTo(mismatch);
    assertThat(e.cancellationReasons().get(0).message()).isNull();
  }

  private void assertCancelledAt(int index, String message, TransactWriteItem... actions) {
    TransactionCanceledException e = assertErrorContaining(TransactionCanceledException.class,
        "TransactionCanceledException", "ValidationError",
        () -> dynamo.transactWriteItems(r -> r.transactItems(actions)));
    assertThat(e.cancellationReasons()).hasSize(actions.length);
    for (int i = 0; i < actions.length; i++) {
      CancellationReason reason = e.cancellationReasons().get(i);
      if (i == index) {
        assertThat(reason.code()).isEqualTo("ValidationError");
        assertThat(reason.message()).isEqualTo(message);
      } else {
        assertThat(reason.code()).isEqualTo("None");
      }
    }
  }

  @Test
  void clientRequestTokenMakesRetriesIdempotent() {
    String accounts = createTable("tx-token", "id", S);
    dynamo.putItem(r -> r.tableName(accounts).item(item("id", s("a"), "balance", n("10"))));
    String token = "token-" + uniqueTableName("t");
    dynamo.transactWriteItems(r -> r.clientRequestToken(token)
        .transactItems(debit(accounts, "a", 3)));
    dynamo.transactWriteItems(r -> r.clientRequestToken(token)
        .transactItems(debit(accounts, "a", 3)));
    assertThat(get(accounts, "a").get("balance")).as("applied once").isEqualTo(n("7"));
    assertErrorContaining(IdempotentParameterMismatchException.class,
        "IdempotentParameterMismatchException", "client token",
        () -> dynamo.transactWriteItems(r -> r.clientRequestToken(token)
            .transactItems(debit(accounts, "a", 4))));
    assertThat(get(accounts, "a").get("balance")).isEqualTo(n("7"));
  }

  @Test
  void transactGetReadsInOrderWithProjections() {
    String accounts = createTable("tx-get", "id", S);
    dynamo.putItem(r -> r.tableName(accounts)
        .item(item("id", s("a"), "balance", n("10"), "owner", s("Ann"))));
    List<ItemResponse> responses = dynamo.transactGetItems(r -> r.transactItems(
        TransactGetItem.builder().get(Get.builder().tableName(accounts)
            .key(item("id", s("missing"))).build()).build(),
        TransactGetItem.builder().get(Get.builder().tableName(accounts)
            .key(item("id", s("a"))).projectionExpression("#o, balance")
            .expressionAttributeNames(Map.of("#o", "owner")).build()).build())).responses();
    assertThat(responses).hasSize(2);
    assertThat(responses.get(0).hasItem()).isFalse();
    assertThat(responses.get(1).item())
        .isEqualTo(item("owner", s("Ann"), "balance", n("10")));
    // A projection that matches nothing of a present item answers no Item, as for a missing one.
    List<ItemResponse> nothing = dynamo.transactGetItems(r -> r.transactItems(
        TransactGetItem.builder().get(Get.builder().tableName(accounts)
            .key(item("id", s("a"))).projectionExpression("absent").build()).build()))
        .responses();
    assertThat(nothing).singleElement().satisfies(i -> assertThat(i.hasItem()).isFalse());
    assertValidation("Transaction request cannot include multiple operations on one item",
        () -> dynamo.transactGetItems(r -> r.transactItems(
            TransactGetItem.builder().get(Get.builder().tableName(accounts)
                .key(item("id", s("a"))).build()).build(),
            TransactGetItem.builder().get(Get.builder().tableName(accounts)
                .key(item("id", s("a"))).build()).build())));
  }

  /**
   * Bank transfers with a conditional debit on several client threads for a few seconds, and a
   * reader taking TransactGetItems snapshots of all accounts: the total never changes, no balance
   * goes negative, and every snapshot sees both.
   */
  @Test
  void concurrentTransfersConserveMoney() throws Exception {
    String accounts = createTable("tx-bank", "id", S);
    int count = 6;
    int initial = 100;
    for (int i = 0; i < count; i++) {
      String id = "acc" + i;
      dynamo.putItem(r -> r.tableName(accounts).item(item("id", s(id), "balance",
          n(String.valueOf(initial)))));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger transfers = new AtomicInteger();
    AtomicInteger snapshots = new AtomicInteger();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(new Thread(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
          int from = random.nextInt(count);
          int to = (from + 1 + random.nextInt(count - 1)) % count;
          int amount = 1 + random.nextInt(50);
          try {
            dynamo.transactWriteItems(r -> r.transactItems(
                debit(accounts, "acc" + from, amount), credit(accounts, "acc" + to, amount)));
            transfers.incrementAndGet();
          } catch (TransactionCanceledException e) {
            // insufficient funds or a conflict: nothing was applied
          } catch (Throwable e) {
            failures.add(e);
          }
        }
      }));
    }
    List<TransactGetItem> gets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      gets.add(TransactGetItem.builder().get(Get.builder().tableName(accounts)
          .key(item("id", s("acc" + i))).build()).build());
    }
    threads.add(new Thread(() -> {
      while (!stop.get()) {
        try {
          long total = 0;
          for (ItemResponse response : dynamo.transactGetItems(r -> r.transactItems(gets))
              .responses()) {
            long balance = Long.parseLong(response.item().get("balance").n());
            if (balance < 0) {
              failures.add(new AssertionError("negative balance " + balance));
            }
            total += balance;
          }
          if (total != (long) count * initial) {
            failures.add(new AssertionError("a snapshot saw a total of " + total));
          }
          snapshots.incrementAndGet();
        } catch (TransactionCanceledException e) {
          // the snapshot kept changing: DynamoDB cancels too
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
        && (System.nanoTime() - least < 0 || transfers.get() <= 20 || snapshots.get() <= 5)) {
      Thread.sleep(20);
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(failures).isEmpty();
    assertThat(transfers.get()).isGreaterThan(20);
    assertThat(snapshots.get()).isGreaterThan(5);
    long total = 0;
    for (int i = 0; i < count; i++) {
      long balance = Long.parseLong(get(accounts, "acc" + i).get("balance").n());
      assertThat(balance).isNotNegative();
      total += balance;
    }
    assertThat(total).isEqualTo((long) count * initial);
  }
}
