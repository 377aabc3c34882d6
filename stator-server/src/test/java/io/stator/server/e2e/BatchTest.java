package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** BatchGetItem and BatchWriteItem through the AWS SDK: results, limits and validation. */
class BatchTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  private static WriteRequest put(Map<String, AttributeValue> item) {
    return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
  }

  private static WriteRequest delete(Map<String, AttributeValue> key) {
    return WriteRequest.builder().deleteRequest(DeleteRequest.builder().key(key).build()).build();
  }

  @Test
  void writesAndReadsAcrossTablesWithEmptyUnprocessedMaps() {
    String users = createTable("users", "id", S);
    String events = createTable("events", "pk", S, "sk", N);
    BatchWriteItemResponse written = dynamo.batchWriteItem(r -> r.requestItems(Map.of(
        users, List.of(put(item("id", s("u1"), "name", s("Ann"))),
            put(item("id", s("u2"), "name", s("Bob")))),
        events, List.of(put(item("pk", s("u1"), "sk", n("1"), "what", s("login")))))));
    assertThat(written.hasUnprocessedItems()).isTrue();
    assertThat(written.unprocessedItems()).isEmpty();

    BatchGetItemResponse read = dynamo.batchGetItem(r -> r.requestItems(Map.of(
        users, KeysAndAttributes.builder()
            .keys(item("id", s("u1")), item("id", s("u2")), item("id", s("nobody")))
            .projectionExpression("#n").expressionAttributeNames(Map.of("#n", "name"))
            .consistentRead(true).build(),
        events, KeysAndAttributes.builder().keys(item("pk", s("u1"), "sk", n("1"))).build())));
    assertThat(read.responses().get(users))
        .containsExactlyInAnyOrder(item("name", s("Ann")), item("name", s("Bob")));
    assertThat(read.responses().get(events))
        .containsExactly(item("pk", s("u1"), "sk", n("1"), "what", s("login")));
    assertThat(read.hasUnprocessedKeys()).isTrue();
    assertThat(read.unprocessedKeys()).isEmpty();

    dynamo.batchWriteItem(r -> r.requestItems(Map.of(users, List.of(delete(item("id", s("u1")))))));
    BatchGetItemResponse after = dynamo.batchGetItem(r -> r.requestItems(Map.of(
        users, KeysAndAttributes.builder()
            .keys(item("id", s("u1")), item("id", s("u2"))).attributesToGet("id").build())));
    assertThat(after.responses().get(users)).containsExactly(item("id", s("u2")));
  }

  @Test
  void batchGetLimitsDuplicatesAndSchema() {
    String table = createTable("bget", "id", S);
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      keys.add(item("id", s("k" + i)));
    }
    assertValidationContaining("failed to satisfy constraint: Member must have length less than"
            + " or equal to 100",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of(
            table, KeysAndAttributes.builder().keys(keys).build()))));
    String other = createTable("bget2", "id", S);
    assertValidation("Too many items requested for the BatchGetItem call",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of(
            table, KeysAndAttributes.builder().keys(keys.subList(0, 60)).build(),
            other, KeysAndAttributes.builder().keys(keys.subList(0, 41)).build()))));
    assertValidation("Provided list of item keys contains duplicates",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of(table, KeysAndAttributes.builder()
            .keys(item("id", s("a")), item("id", s("a"))).build()))));
    assertValidation("The provided key element does not match the schema",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of(table, KeysAndAttributes.builder()
            .keys(item("id", n("1"))).build()))));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of("no-such-table",
            KeysAndAttributes.builder().keys(item("id", s("a"))).build()))));
    assertValidation("Can not use both expression and non-expression parameters in the same"
            + " request: Non-expression parameters: {AttributesToGet} Expression parameters:"
            + " {ProjectionExpression}",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of(table, KeysAndAttributes.builder()
            .keys(item("id", s("a"))).projectionExpression("id").attributesToGet("id")
            .build()))));
  }

  @Test
  void batchWriteLimitsAndValidationWriteNothing() {
    String table = createTable("bwrite", "id", S);
    List<WriteRequest> many = new ArrayList<>();
    for (int i = 0; i < 26; i++) {
      many.add(put(item("id", s("k" + i))));
    }
    assertValidationContaining("Member must have length less than or equal to 25",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, many))));
    assertValidation("Provided list of item keys contains duplicates",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
            put(item("id", s("first"))), put(item("id", s("dup"))),
            delete(item("id", s("dup"))))))));
    assertValidation("The provided key element does not match the schema",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
            put(item("id", s("first"))), put(item("other", s("x"))))))));
    assertValidation("Item size has exceeded the maximum allowed size",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
            put(item("id", s("first"))),
            put(item("id", s("big"), "blob", s(repeat("x", 400 * 1024)))))))));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("first")))).hasItem())
        .as("a failed batch writes nothing").isFalse();
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of("no-such-table",
            List.of(put(item("id", s("a"))))))));
  }
}
