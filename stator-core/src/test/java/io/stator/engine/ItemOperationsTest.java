package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DeleteItemRequest;
import io.stator.api.ErrorType;
import io.stator.api.GetItemRequest;
import io.stator.api.PutItemRequest;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ItemOperationsTest extends EngineTest {

  @BeforeEach
  void tables() {
    db.createTable(create("Composite", "pk", "S", "sk", "N"));
    db.createTable(create("Simple", "id", "B", null, null));
  }

  @Test
  void putReplacesTheWholeItemAndGetReadsIt() {
    put(db, "Composite", item("pk", "a", "sk", 1, "x", "1", "y", "2"));
    put(db, "Composite", item("pk", "a", "sk", 1, "z", "3"));
    assertThat(db.getItem(Fixtures.get("Composite", item("pk", "a", "sk", 1))).item())
        .isEqualTo(item("pk", "a", "sk", 1, "z", "3"));
    // numbers are keys by value: 1.0 is 1
    assertThat(db.getItem(Fixtures.get("Composite",
            item("pk", "a", "sk", AttributeValue.n("1.0")))).item())
        .containsEntry("z", AttributeValue.s("3"));
  }

  @Test
  void allTenTypesRoundTrip() {
    Map<String, AttributeValue> full =
        item(
            "pk", "all", "sk", 0,
            "s", "", "n", AttributeValue.n("1.50"), "b", AttributeValue.b(new byte[0]),
            "bool", AttributeValue.bool(true), "null", AttributeValue.NULL,
            "m", AttributeValue.m(Map.of("inner", AttributeValue.l(List.of(AttributeValue.s("x"))))),
            "l", AttributeValue.l(List.of(AttributeValue.n("1"), AttributeValue.NULL)),
            "ss", AttributeValue.ss(List.of("a", "b")),
            "ns", AttributeValue.ns(List.of("1", "2.5")),
            "bs", AttributeValue.bs(List.of(io.stator.value.Bytes.of(new byte[] {1}))));
    put(db, "Composite", full);
    Map<String, AttributeValue> read =
        db.getItem(Fixtures.get("Composite", item("pk", "all", "sk", 0))).item();
    assertThat(read).isEqualTo(full);
    assertThat(read.get("n")).isEqualTo(new AttributeValue.N("1.5"));
  }

  @Test
  void returnValuesAllOld() {
    var none = db.putItem(Fixtures.putRequest("Composite", item("pk", "a", "sk", 1, "v", "1"),
        "ALL_OLD"));
    assertThat(none.attributes()).isNull();
    var old = db.putItem(Fixtures.putRequest("Composite", item("pk", "a", "sk", 1, "v", "2"),
        "ALL_OLD"));
    assertThat(old.attributes()).isEqualTo(item("pk", "a", "sk", 1, "v", "1"));
    var deleted = db.deleteItem(Fixtures.delete("Composite", item("pk", "a", "sk", 1), "ALL_OLD"));
    assertThat(deleted.attributes()).isEqualTo(item("pk", "a", "sk", 1, "v", "2"));
    assertThat(db.getItem(Fixtures.get("Composite", item("pk", "a", "sk", 1))).item()).isNull();
    var nothing = db.deleteItem(Fixtures.delete("Composite", item("pk", "a", "sk", 1), "ALL_OLD"));
    assertThat(nothing.attributes()).isNull();
    expect(() -> db.putItem(Fixtures.putRequest("Composite", item("pk", "a", "sk", 1), "ALL_NEW")),
        ErrorType.ValidationException, "Return values set to invalid value");
    expect(() -> db.deleteItem(Fixtures.delete("Composite", item("pk", "a", "sk", 1),
            "UPDATED_OLD")),
        ErrorType.ValidationException, "Return values set to invalid value");
    expect(() -> db.putItem(Fixtures.putRequest("Composite", item("pk", "a", "sk", 1), "BOGUS")),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'BOGUS' at 'returnValues' failed to satisfy"
            + " constraint: Member must satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD,"
            + " ALL_NEW, UPDATED_NEW]");
  }

  @Test
  void putKeyValidation() {
    expect(() -> put(db, "Composite", item("pk", "a")), ErrorType.ValidationException,
        "One or more parameter values were invalid: Missing the key sk in the item");
    expect(() -> put(db, "Composite", item("pk", 1, "sk", 1)), ErrorType.ValidationException,
        "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N");
    expect(() -> put(db, "Composite", item("pk", "", "sk", 1)), ErrorType.ValidationException,
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot"
            + " contain an empty string value. Key: pk");
    expect(() -> put(db, "Simple", item("id", AttributeValue.b(new byte[0]))),
        ErrorType.ValidationException,
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot"
            + " contain an empty binary value. Key: id");
    expect(() -> put(db, "Composite", item("pk", "x".repeat(2049), "sk", 1)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size"
            + " limit of2048 bytes");
    put(db, "Composite", item("pk", "x".repeat(2048), "sk", 1)); // the limit itself is fine
    db.createTable(create("StringSort", "pk", "S", "sk", "S"));
    expect(() -> put(db, "StringSort", item("pk", "a", "sk", "y".repeat(1025))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded"
            + " the size limit of 1024 bytes");
    expect(() -> put(db, "Missing", item("pk", "a")), ErrorType.ResourceNotFoundException,
        "Requested resource not found");
  }

  @Test
  void itemSizeLimit() {
    put(db, "Composite", item("pk", "a", "sk", 1, "big", "x".repeat(400 * 1024 - 100)));
    expect(() -> put(db, "Composite", item("pk", "a", "sk", 2, "big", "x".repeat(400 * 1024))),
        ErrorType.ValidationException, "Item size has exceeded the maximum allowed size");
  }

  @Test
  void getAndDeleteKeyValidation() {
    expect(() -> db.getItem(Fixtures.get("Composite", item("pk", "a"))),
        ErrorType.ValidationException, "The provided key element does not match the schema");
    expect(() -> db.getItem(Fixtures.get("Composite", item("pk", "a", "sk", "1"))),
        ErrorType.ValidationException, "The provided key element does not match the schema");
    expect(() -> db.getItem(Fixtures.get("Composite", item("pk", "a", "sk", 1, "x", "y"))),
        ErrorType.ValidationException, "The provided key element does not match the schema");
    expect(() -> db.getItem(Fixtures.get("Composite", item("pk", "", "sk", 1))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: The AttributeValue for a key attribute cannot"
            + " contain an empty string value. Key: pk");
    expect(() -> db.deleteItem(Fixtures.delete("Composite", item("sk", 1), null)),
        ErrorType.ValidationException, "The provided key element does not match the schema");
  }

  @Test
  void projectionExpressionAndAttributesToGet() {
    put(db, "Composite", item("pk", "a", "sk", 1, "name", "Alice",
        "address", AttributeValue.m(Map.of("city", AttributeValue.s("Paris"),
            "zip", AttributeValue.s("75001"))),
        "other", "x"));
    Map<String, AttributeValue> projected = db.getItem(new GetItemRequest("Composite",
        item("pk", "a", "sk", 1), true, "#n, address.city", Map.of("#n", "name"), null, null))
        .item();
    assertThat(projected).isEqualTo(item("name", "Alice",
        "address", AttributeValue.m(Map.of("city", AttributeValue.s("Paris")))));
    Map<String, AttributeValue> legacy = db.getItem(new GetItemRequest("Composite",
        item("pk", "a", "sk", 1), null, null, null, List.of("other", "pk"), null)).item();
    assertThat(legacy).isEqualTo(item("other", "x", "pk", "a"));
    expect(() -> db.getItem(new GetItemRequest("Composite", item("pk", "a", "sk", 1), null,
            "name", null, List.of("name"), null)),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {AttributesToGet} Expression parameters:"
            + " {ProjectionExpression}");
    expect(() -> db.getItem(new GetItemRequest("Composite", item("pk", "a", "sk", 1), null,
            null, Map.of("#n", "name"), null, null)),
        ErrorType.ValidationException,
        "ExpressionAttributeNames can only be specified when using expressions");
  }

  @Test
  void conditionExpressionOnPutAndDelete() {
    PutItemRequest ifAbsent = new PutItemRequest("Composite", item("pk", "c", "sk", 1, "v", "1"),
        "attribute_not_exists(pk)", null, null, null, null, null, null, null, null);
    db.putItem(ifAbsent);
    expect(() -> db.putItem(ifAbsent), ErrorType.ConditionalCheckFailedException,
        "The conditional request failed");
    DeleteItemRequest ifMatches = new DeleteItemRequest("Composite", item("pk", "c", "sk", 1),
        "v = :v", null, Fixtures.values(":v", "2"), null, null, null, "ALL_OLD", null, null);
    expect(() -> db.deleteItem(ifMatches), ErrorType.ConditionalCheckFailedException,
        "The conditional request failed");
    try {
      db.deleteItem(ifMatches);
    } catch (io.stator.api.DynamoDbException e) {
      assertThat(e.item()).isEqualTo(item("pk", "c", "sk", 1, "v", "1"));
    }
    assertThat(db.getItem(Fixtures.get("Composite", item("pk", "c", "sk", 1))).item()).isNotNull();
  }

  @Test
  void concurrentUnconditionalWritesAllLand() throws Exception {
    List<Thread> threads = new java.util.ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int base = t * 100;
      threads.add(new Thread(() -> {
        for (int i = 0; i < 100; i++) {
          put(db, "Composite", item("pk", "same", "sk", base + i));
          put(db, "Composite", item("pk", "hot", "sk", 0, "writer", base + i));
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(db.query(Fixtures.query("Composite", "pk = :p", Fixtures.values(":p", "same")))
        .count()).isEqualTo(400);
  }
}
