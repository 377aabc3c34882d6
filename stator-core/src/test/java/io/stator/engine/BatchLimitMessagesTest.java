package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.Database;
import io.stator.api.DynamoDbException;
import io.stator.api.KeysAndAttributes;
import io.stator.api.PutRequest;
import io.stator.api.WriteRequest;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The constraint messages of batches show the request as DynamoDB does, by shape and identity,
 * never the items' contents: a batch of large items gets a short message.
 */
class BatchLimitMessagesTest {
  private final Database db = Stator.inMemory();

  private static final String WRITE_REQUEST = "com\\.amazonaws\\.dynamodb\\.v20120810"
      + "\\.WriteRequest@[0-9a-f]+";

  @Test
  void tooManyWritesNamesEachRequestByShape() {
    db.createTable(create("Orders", "pk", "S", null, null));
    List<WriteRequest> writes = new ArrayList<>();
    String big = "x".repeat(100_000);
    for (int i = 0; i < 26; i++) {
      writes.add(new WriteRequest(new PutRequest(item("pk", "k" + i, "blob", big)), null));
    }
    assertThatThrownBy(() -> db.batchWriteItem(
            new BatchWriteItemRequest(Map.of("Orders", writes), null, null)))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.getMessage())
              .matches("1 validation error detected: Value '\\{Orders=\\[" + WRITE_REQUEST
                  + "(, " + WRITE_REQUEST + "){25}\\]\\}' at 'requestItems' failed to satisfy"
                  + " constraint: Map value must satisfy constraint: \\[Member must have length"
                  + " less than or equal to 25, Member must have length greater than or equal"
                  + " to 1\\]");
          assertThat(e.getMessage()).doesNotContain("xxxx").hasSizeLessThan(2_500);
        });
  }

  @Test
  void anEmptyListOfWritesAndABadTableName() {
    Map<String, List<WriteRequest>> items = new LinkedHashMap<>();
    items.put("Orders", List.of());
    assertThatThrownBy(() -> db.batchWriteItem(new BatchWriteItemRequest(items, null, null)))
        .hasMessage("1 validation error detected: Value '{Orders=[]}' at 'requestItems' failed"
            + " to satisfy constraint: Map value must satisfy constraint: [Member must have"
            + " length less than or equal to 25, Member must have length greater than or equal"
            + " to 1]");
    Map<String, KeysAndAttributes> reads = Map.of("x",
        new KeysAndAttributes(List.of(item("pk", "a")), null, null, null, null));
    assertThatThrownBy(() -> db.batchGetItem(new BatchGetItemRequest(reads, null)))
        .message()
        .matches("1 validation error detected: Value '\\{x=com\\.amazonaws\\.dynamodb"
            + "\\.v20120810\\.KeysAndAttributes@[0-9a-f]+\\}' at 'requestItems' failed to"
            + " satisfy constraint: Map keys must satisfy constraint: .*");
  }

  @Test
  void tooManyKeysShowsTheKeysCompactly() {
    db.createTable(create("Orders", "pk", "S", null, null));
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      keys.add(item("pk", "k" + i));
    }
    assertThatThrownBy(() -> db.batchGetItem(new BatchGetItemRequest(
            Map.of("Orders", new KeysAndAttributes(keys, null, null, null, null)), null)))
        .message()
        .startsWith("1 validation error detected: Value '[{pk={S: k0,}}, {pk={S: k1,}}, ")
        .endsWith("{pk={S: k100,}}]' at 'requestItems.Orders.member.keys' failed to satisfy"
            + " constraint: Member must have length less than or equal to 100");
  }
}
