package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.engine.IndexInvariants;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Base of the end-to-end tests: each subclass runs once per {@link Target} (the real server on
 * in-memory storage, on RocksDB and on a Cassandra node, or an external endpoint), against one
 * endpoint started for the whole class. Tests share the endpoint, so each creates its own tables with unique names.
 *
 * <p>To check the suite's expectations against another DynamoDB implementation, run it with
 * {@code -Dstator.e2e.endpoint=http://127.0.0.1:PORT}; each test class notes where such a peer
 * disagrees with DynamoDB's documented behaviour and which side the assertion takes.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.stator.server.e2e.Target#all")
abstract class EndToEndTest {
  private static final AtomicInteger TABLE_COUNTER = new AtomicInteger();
  /** Distinguishes the tables of one run from those of earlier runs on an external endpoint. */
  private static final String RUN_ID = UUID.randomUUID().toString().substring(0, 8);

  /**
   * The endpoint of the running class invocation. Invocations run one after the other, so one
   * slot suffices; it lives outside the test instances because JUnit makes one per test.
   */
  private static DynamoDbEndpoint running;

  /** The tables named since the last check of the invariants, see {@link #checkInvariants}. */
  private static final ConcurrentLinkedQueue<String> NAMED = new ConcurrentLinkedQueue<>();

  @Parameter Target target;

  DynamoDbEndpoint endpoint;
  DynamoDbClient dynamo;

  @BeforeParameterizedClassInvocation
  static void startEndpoint(Target target) {
    running = DynamoDbEndpoint.start(target);
  }

  @AfterParameterizedClassInvocation
  static void stopEndpoint() {
    if (running != null) {
      running.close();
      running = null;
    }
  }

  @BeforeEach
  void useEndpoint() {
    endpoint = running;
    dynamo = running.client();
  }

  /**
   * After each test, on the real server: every secondary index of the tables the test made is
   * the projection of its table ({@link IndexInvariants}), whatever the test itself asserted.
   */
  @AfterEach
  void checkInvariants() {
    for (String table; (table = NAMED.poll()) != null; ) {
      if (endpoint != null && endpoint.database() != null) {
        IndexInvariants.check(endpoint.database(), table);
      }
    }
  }

  /** A table name no other test uses: {@code e2e-<purpose>-<run>-<n>}. */
  static String uniqueTableName(String purpose) {
    String name = "e2e-" + purpose + "-" + RUN_ID + "-" + TABLE_COUNTER.incrementAndGet();
    NAMED.add(name);
    return name;
  }

  /** Creates an on-demand table with a partition key only and waits until it is ACTIVE. */
  String createTable(String purpose, String hashKey, ScalarAttributeType hashType) {
    String name = uniqueTableName(purpose);
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(name)
        .keySchema(key(hashKey, KeyType.HASH))
        .attributeDefinitions(attribute(hashKey, hashType))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(name);
    return name;
  }

  /** Creates an on-demand table with a partition and a sort key and waits until it is ACTIVE. */
  String createTable(String purpose, String hashKey, ScalarAttributeType hashType,
      String rangeKey, ScalarAttributeType rangeType) {
    String name = uniqueTableName(purpose);
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(name)
        .keySchema(key(hashKey, KeyType.HASH), key(rangeKey, KeyType.RANGE))
        .attributeDefinitions(attribute(hashKey, hashType), attribute(rangeKey, rangeType))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(name);
    return name;
  }

  /** Waits for a restored table to turn ACTIVE, seeing it CREATING (its restore in progress)
   * or ACTIVE (done) meanwhile. */
  TableDescription awaitRestored(String table) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      TableDescription d = dynamo.describeTable(r -> r.tableName(table)).table();
      assertThat(d.tableStatus()).isIn(TableStatus.CREATING, TableStatus.ACTIVE);
      if (d.tableStatus() == TableStatus.ACTIVE) {
        assertThat(d.restoreSummary().restoreInProgress()).isFalse();
        return d;
      }
      assertThat(d.restoreSummary().restoreInProgress()).isTrue();
      assertThat(System.nanoTime()).as("restore of %s", table).isLessThan(deadline);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** A time after every write acknowledged so far, and before every write made after it. */
  static Instant instantBetweenWrites() {
    Instant t = Instant.ofEpochMilli(System.currentTimeMillis());
    while (System.currentTimeMillis() <= t.toEpochMilli()) {
      Thread.onSpinWait(); // the next write's time is a later millisecond than T
    }
    return t;
  }

  /** DynamoDB creates tables asynchronously: CreateTable answers CREATING, later ACTIVE. */
  void awaitActive(String tableName) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      TableStatus status =
          dynamo.describeTable(r -> r.tableName(tableName)).table().tableStatus();
      if (status == TableStatus.ACTIVE) {
        return;
      }
      assertThat(System.nanoTime()).as("table %s still %s", tableName, status).isLessThan(deadline);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /**
   * CreateTable of {@code name} keyed on pk and sk (strings), on demand, with an LSI byL on l
   * (KEYS_ONLY) and a GSI byG on g (INCLUDE v): the backup and restore tests' table, which each
   * test adds its own settings to.
   */
  static CreateTableRequest.Builder indexedTableRequest(String name) {
    ScalarAttributeType s = ScalarAttributeType.S;
    return CreateTableRequest.builder().tableName(name)
        .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
        .attributeDefinitions(attribute("pk", s), attribute("sk", s), attribute("g", s),
            attribute("l", s))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .localSecondaryIndexes(i -> i.indexName("byL")
            .keySchema(key("pk", KeyType.HASH), key("l", KeyType.RANGE))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
        .globalSecondaryIndexes(i -> i.indexName("byG").keySchema(key("g", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("v")));
  }

  static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  static AttributeDefinition attribute(String name, ScalarAttributeType type) {
    return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
  }

  static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  static AttributeValue n(String value) {
    return AttributeValue.fromN(value);
  }

  static AttributeValue b(int... unsignedBytes) {
    byte[] bytes = new byte[unsignedBytes.length];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) unsignedBytes[i];
    }
    return AttributeValue.fromB(SdkBytes.fromByteArray(bytes));
  }

  static AttributeValue b(String utf8) {
    return AttributeValue.fromB(SdkBytes.fromString(utf8, StandardCharsets.UTF_8));
  }

  static AttributeValue m(Map<String, AttributeValue> value) {
    return AttributeValue.fromM(value);
  }

  static AttributeValue ss(String... members) {
    return AttributeValue.fromSs(List.of(members));
  }

  static AttributeValue l(AttributeValue... values) {
    return AttributeValue.fromL(List.of(values));
  }

  /** An item (or key) from name/value pairs, in order. */
  static Map<String, AttributeValue> item(Object... namesAndValues) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      item.put((String) namesAndValues[i], (AttributeValue) namesAndValues[i + 1]);
    }
    return item;
  }

  /**
   * The ExpressionAttributeValues among placeholder/value pairs (":v", value, "#n", "name", ...),
   * in order; null when there are none, as a request that uses no values leaves them out.
   */
  static Map<String, AttributeValue> attributeValues(Object... placeholdersAndValues) {
    Map<String, AttributeValue> values = new LinkedHashMap<>();
    for (int i = 0; i < placeholdersAndValues.length; i += 2) {
      String placeholder = (String) placeholdersAndValues[i];
      if (!placeholder.startsWith("#")) {
        values.put(placeholder, (AttributeValue) placeholdersAndValues[i + 1]);
      }
    }
    return values.isEmpty() ? null : values;
  }

  /** The ExpressionAttributeNames ("#n") among placeholder/value pairs; null when none. */
  static Map<String, String> attributeNames(Object... placeholdersAndValues) {
    Map<String, String> names = new LinkedHashMap<>();
    for (int i = 0; i < placeholdersAndValues.length; i += 2) {
      String placeholder = (String) placeholdersAndValues[i];
      if (placeholder.startsWith("#")) {
        names.put(placeholder, (String) placeholdersAndValues[i + 1]);
      }
    }
    return names.isEmpty() ? null : names;
  }

  static String repeat(String unit, int times) {
    return unit.repeat(times);
  }

  /**
   * Asserts that the call fails with a client error of DynamoDB: the SDK's typed exception, HTTP
   * 400, the error code of the {@code __type} and exactly the given message.
   */
  static <T extends DynamoDbException> T assertError(
      Class<T> type, String errorCode, String message, ThrowingCallable call) {
    T error = assertErrorCode(type, errorCode, call);
    assertThat(error.awsErrorDetails().errorMessage()).as("message of %s", errorCode)
        .isEqualTo(message);
    return error;
  }

  /** Like {@link #assertError} where the exact wording is not known: a distinctive fragment. */
  static <T extends DynamoDbException> T assertErrorContaining(
      Class<T> type, String errorCode, String fragment, ThrowingCallable call) {
    T error = assertErrorCode(type, errorCode, call);
    assertThat(error.awsErrorDetails().errorMessage()).as("message of %s", errorCode)
        .contains(fragment);
    return error;
  }

  /** A ValidationException with exactly this message. */
  static DynamoDbException assertValidation(String message, ThrowingCallable call) {
    return assertError(DynamoDbException.class, "ValidationException", message, call);
  }

  /** A ValidationException whose message contains this fragment. */
  static DynamoDbException assertValidationContaining(String fragment, ThrowingCallable call) {
    return assertErrorContaining(DynamoDbException.class, "ValidationException", fragment, call);
  }

  private static <T extends DynamoDbException> T assertErrorCode(
      Class<T> type, String errorCode, ThrowingCallable call) {
    T error = catchThrowableOfType(type, call);
    assertThat(error).as("expected %s (%s)", type.getSimpleName(), errorCode).isNotNull();
    assertThat(error.awsErrorDetails().errorCode()).isEqualTo(errorCode);
    assertThat(error.statusCode()).isEqualTo(400);
    return error;
  }
}
