package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.AttributeValueUpdate;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ExpectedAttributeValue;
import io.stator.api.UpdateItemRequest;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class UpdateItemTest extends EngineTest {
  private static final String INVALID = "One or more parameter values were invalid: ";


  @BeforeEach
  void tables() {
    db.createTable(create("ProductCatalog", "Id", "N", null, null));
    db.createTable(create("Music", "Artist", "S", "SongTitle", "S"));
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static final Map<String, AttributeValue> PRODUCT = item("Id", 789);

  /** A request on ProductCatalog item 789 (names and values as alternating pairs, or null). */
  private UpdateItemRequest update(
      String expression, Map<String, String> names, Map<String, AttributeValue> values,
      String returnValues) {
    return new UpdateItemRequest("ProductCatalog", PRODUCT, expression, null, names, values,
        returnValues, null, null, null, null, null, null);
  }

  private Map<String, AttributeValue> run(
      String expression, Map<String, String> names, Map<String, AttributeValue> values,
      String returnValues) {
    return db.updateItem(update(expression, names, values, returnValues)).attributes();
  }

  private Map<String, AttributeValue> product() {
    return db.getItem(Fixtures.get("ProductCatalog", PRODUCT)).item();
  }

  private static Map<String, String> names(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static AttributeValue s(String s) {
    return AttributeValue.s(s);
  }

  private static AttributeValue n(String n) {
    return AttributeValue.n(n);
  }

  private static AttributeValue list(AttributeValue... values) {
    return AttributeValue.l(List.of(values));
  }

  private static AttributeValue map(Object... nameValues) {
    return AttributeValue.m(item(nameValues));
  }

  private static AttributeValue ss(String... values) {
    return AttributeValue.ss(List.of(values));
  }

  // ---- DynamoDB's documented examples ------------------------------------------------------

  /** The UpdateItem API reference example "To update an item in a table". */
  @Test
  void apiReferenceExample() {
    put(db, "Music", item("Artist", "Acme Band", "SongTitle", "Happy Day"));
    UpdateItemRequest r = new UpdateItemRequest("Music",
        item("Artist", "Acme Band", "SongTitle", "Happy Day"),
        "SET #Y = :y, #AT = :t", null, names("#Y", "Year", "#AT", "AlbumTitle"),
        Fixtures.values(":t", "Louder Than Ever", ":y", 2015), "ALL_NEW", null, null, null,
        null, null, null);
    assertThat(db.updateItem(r).attributes()).isEqualTo(item("Artist", "Acme Band",
        "SongTitle", "Happy Day", "Year", 2015, "AlbumTitle", "Louder Than Ever"));
  }

  /**
   * The developer guide's walk through update expressions on ProductCatalog item 789: SET of
   * top-level, list and map attributes, nested SET, arithmetic, list_append at either end,
   * if_not_exists, REMOVE of attributes and list elements, ADD to numbers and sets, DELETE from
   * a set.
   */
  @Test
  void developerGuideProductCatalogWalkThrough() {
    put(db, "ProductCatalog", item("Id", 789, "ProductCategory", "Home Improvement",
        "Price", 52, "InStock", AttributeValue.bool(true), "Brand", "Acme"));

    // SET ProductCategory = :c, Price = :p
    assertThat(run("SET ProductCategory = :c, Price = :p", null,
        Fixtures.values(":c", "Hardware", ":p", 60), "ALL_NEW"))
        .containsEntry("ProductCategory", s("Hardware"))
        .containsEntry("Price", n("60"));

    // SET RelatedItems = :ri, ProductReviews = :pr
    run("SET RelatedItems = :ri, ProductReviews = :pr", null,
        Map.of(":ri", list(s("Hammer")),
            ":pr", map("FiveStar", list(s("Best product ever!")))), null);
    assertThat(product().get("RelatedItems")).isEqualTo(list(s("Hammer")));

    // SET RelatedItems[1] = :ri (a new element at the end)
    run("SET RelatedItems[1] = :ri", null, Fixtures.values(":ri", "Nails"), null);
    assertThat(product().get("RelatedItems")).isEqualTo(list(s("Hammer"), s("Nails")));

    // SET #pr.#5star[1] = :r5, #pr.#3star = :r3
    Map<String, AttributeValue> updatedNew = run("SET #pr.#5star[1] = :r5, #pr.#3star = :r3",
        names("#pr", "ProductReviews", "#5star", "FiveStar", "#3star", "ThreeStar"),
        Map.of(":r5", s("Very happy with my purchase"),
            ":r3", list(s("Just OK - not that great"))), "UPDATED_NEW");
    assertThat(updatedNew).isEqualTo(item("ProductReviews", map(
        "FiveStar", list(s("Very happy with my purchase")),
        "ThreeStar", list(s("Just OK - not that great")))));
    assertThat(product().get("ProductReviews")).isEqualTo(map(
        "FiveStar", list(s("Best product ever!"), s("Very happy with my purchase")),
        "ThreeStar", list(s("Just OK - not that great"))));

    // SET Price = Price - :p
    run("SET Price = Price - :p", null, Fixtures.values(":p", 15), null);
    assertThat(product().get("Price")).isEqualTo(n("45"));

    // SET #ri = list_append(#ri, :vals), then prepend with list_append(:vals, #ri)
    run("SET #ri = list_append(#ri, :vals)", names("#ri", "RelatedItems"),
        Map.of(":vals", list(s("Screwdriver"), s("Hacksaw"))), null);
    run("SET #ri = list_append(:vals, #ri)", names("#ri", "RelatedItems"),
        Map.of(":vals", list(s("Chisel"))), null);
    assertThat(product().get("RelatedItems")).isEqualTo(
        list(s("Chisel"), s("Hammer"), s("Nails"), s("Screwdriver"), s("Hacksaw")));

    // SET Price = if_not_exists(Price, :p): Price exists, nothing changes
    run("SET Price = if_not_exists(Price, :p)", null, Fixtures.values(":p", 100), null);
    assertThat(product().get("Price")).isEqualTo(n("45"));
    run("SET Discount = if_not_exists(Discount, :d)", null, Fixtures.values(":d", 5), null);
    assertThat(product().get("Discount")).isEqualTo(n("5"));

    // REMOVE Brand, InStock, QuantityOnHand (the last one is absent: no error)
    assertThat(run("REMOVE Brand, InStock, QuantityOnHand", null, null, "UPDATED_OLD"))
        .isEqualTo(item("Brand", "Acme", "InStock", AttributeValue.bool(true)));
    assertThat(product()).doesNotContainKeys("Brand", "InStock");

    // REMOVE RelatedItems[1], RelatedItems[2]: indexes of the list before the update
    run("REMOVE RelatedItems[1], RelatedItems[2]", null, null, null);
    assertThat(product().get("RelatedItems"))
        .isEqualTo(list(s("Chisel"), s("Screwdriver"), s("Hacksaw")));

    // ADD QuantityOnHand :q creates the number, a second ADD adds to it
    run("ADD QuantityOnHand :q", null, Fixtures.values(":q", 5), null);
    run("ADD QuantityOnHand :q", null, Fixtures.values(":q", -2), null);
    assertThat(product().get("QuantityOnHand")).isEqualTo(n("3"));

    // ADD Color :c to a string set, then DELETE Color :p from it
    run("ADD Color :c", null, Map.of(":c", ss("Orange", "Purple")), null);
    run("ADD Color :c", null, Map.of(":c", ss("Yellow", "Orange")), null);
    assertThat(product().get("Color")).isEqualTo(ss("Orange", "Purple", "Yellow"));
    run("DELETE Color :p", null, Map.of(":p", ss("Yellow", "Purple")), null);
    assertThat(product().get("Color")).isEqualTo(ss("Orange"));
    // deleting the last element removes the attribute: DynamoDB has no empty sets
    run("DELETE Color :p", null, Map.of(":p", ss("Orange")), null);
    assertThat(product()).doesNotContainKey("Color");
  }

  /** The conditional update of the developer guide: reduce the price only if it is above 500. */
  @Test
  void conditionalUpdateFromTheDeveloperGuide() {
    put(db, "ProductCatalog", item("Id", 789, "Price", 650));
    UpdateItemRequest reduce = new UpdateItemRequest("ProductCatalog", PRODUCT,
        "SET Price = Price - :discount", "Price > :limit", null,
        Fixtures.values(":discount", 150, ":limit", 500), "ALL_NEW", null, null, null, null,
        null, null);
    assertThat(db.updateItem(reduce).attributes()).containsEntry("Price", n("500"));
    expect(() -> db.updateItem(reduce), ErrorType.ConditionalCheckFailedException,
        "The conditional request failed");
    assertThat(product().get("Price")).isEqualTo(n("500"));
  }

  /** The atomic counter of the developer guide. */
  @Test
  void atomicCounter() {
    put(db, "ProductCatalog", item("Id", 789, "Price", 500));
    for (int i = 0; i < 3; i++) {
      run("SET Price = Price + :incr", null, Fixtures.values(":incr", 5), null);
    }
    assertThat(product().get("Price")).isEqualTo(n("515"));
  }

  // ---- creating and not creating -----------------------------------------------------------

  @Test
  void updateCreatesAMissingItemFromItsKey() {
    assertThat(run("SET a = :v", null, Fixtures.values(":v", "x"), "ALL_NEW"))
        .isEqualTo(item("Id", 789, "a", "x"));
    assertThat(product()).isEqualTo(item("Id", 789, "a", "x"));
  }

  @Test
  void addOnAMissingItemStartsFromZero() {
    assertThat(run("ADD n :one", null, Fixtures.values(":one", 1), "UPDATED_NEW"))
        .isEqualTo(item("n", 1));
    assertThat(product()).isEqualTo(item("Id", 789, "n", 1));
  }

  @Test
  void removeOrDeleteOnlyOnAMissingItemCreatesNothing() {
    assertThat(run("REMOVE a, b", null, null, "ALL_NEW")).isNull();
    assertThat(run("DELETE s :v", null, Map.of(":v", ss("x")), "ALL_NEW")).isNull();
    assertThat(product()).isNull();
    AttributeValueUpdate delete = new AttributeValueUpdate(null, "DELETE");
    db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, null, null, null, null, null,
        null, null, null, Map.of("a", delete), null, null));
    assertThat(product()).isNull();
  }

  @Test
  void updateWithoutAnyUpdateCreatesTheKeyOnlyItem() {
    db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, null, null, null, null, null,
        null, null, null, null, null, null));
    assertThat(product()).isEqualTo(PRODUCT);
  }

  // ---- ReturnValues ------------------------------------------------------------------------

  @Test
  void everyReturnValuesOption() {
    put(db, "ProductCatalog", item("Id", 789, "a", 1, "b", "keep", "m", map("x", 1, "y", 2)));
    String expr = "SET a = a + :one, m.x = :ten, c = :c REMOVE b";
    Map<String, AttributeValue> values = Fixtures.values(":one", 1, ":ten", 10, ":c", "new");

    assertThat(run(expr, null, values, "NONE")).isNull();
    assertThat(run(expr, null, values, null)).isNull();
    // state now: a=3, m.x=10, c=new, no b
    assertThat(run(expr, null, values, "ALL_OLD"))
        .isEqualTo(item("Id", 789, "a", 3, "m", map("x", 10, "y", 2), "c", "new"));
    assertThat(run(expr, null, values, "UPDATED_OLD"))
        .isEqualTo(item("a", 4, "m", map("x", 10), "c", "new"));
    assertThat(run(expr, null, values, "ALL_NEW"))
        .isEqualTo(item("Id", 789, "a", 6, "m", map("x", 10, "y", 2), "c", "new"));
    assertThat(run(expr, null, values, "UPDATED_NEW"))
        .isEqualTo(item("a", 7, "m", map("x", 10), "c", "new"));
    // the removed attribute appears in UPDATED_OLD only
    put(db, "ProductCatalog", item("Id", 789, "b", "gone"));
    assertThat(run("REMOVE b", null, null, "UPDATED_OLD")).isEqualTo(item("b", "gone"));
    put(db, "ProductCatalog", item("Id", 789, "b", "gone"));
    assertThat(run("REMOVE b", null, null, "UPDATED_NEW")).isNull();
  }

  @Test
  void returnValuesOnAMissingItem() {
    assertThat(run("SET a = :v", null, Fixtures.values(":v", 1), "ALL_OLD")).isNull();
    db.deleteItem(Fixtures.delete("ProductCatalog", PRODUCT, null));
    assertThat(run("SET a = :v", null, Fixtures.values(":v", 1), "UPDATED_OLD")).isNull();
  }

  @Test
  void returnValuesOnConditionCheckFailure() {
    put(db, "ProductCatalog", item("Id", 789, "v", 1));
    UpdateItemRequest r = new UpdateItemRequest("ProductCatalog", PRODUCT, "SET v = :two",
        "v = :two", null, Fixtures.values(":two", 2), "ALL_NEW", null, null, "ALL_OLD", null,
        null, null);
    try {
      db.updateItem(r);
      throw new AssertionError("the condition should fail");
    } catch (DynamoDbException e) {
      assertThat(e.type()).isEqualTo(ErrorType.ConditionalCheckFailedException);
      assertThat(e.item()).isEqualTo(item("Id", 789, "v", 1));
    }
    // without it, no item on the error
    UpdateItemRequest none = new UpdateItemRequest("ProductCatalog", PRODUCT, "SET v = :two",
        "v = :two", null, Fixtures.values(":two", 2), null, null, null, "NONE", null, null,
        null);
    try {
      db.updateItem(none);
      throw new AssertionError("the condition should fail");
    } catch (DynamoDbException e) {
      assertThat(e.item()).isNull();
    }
    // a condition on a missing item sees no attributes
    db.deleteItem(Fixtures.delete("ProductCatalog", PRODUCT, null));
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, "SET v = :two",
            "attribute_exists(Id)", null, Fixtures.values(":two", 2), null, null, null, null,
            null, null, null)),
        ErrorType.ConditionalCheckFailedException, "The conditional request failed");
    assertThat(product()).isNull();
  }

  // ---- validation --------------------------------------------------------------------------

  @Test
  void keyAttributesCannotBeUpdated() {
    expect(() -> run("SET Id = :v", null, Fixtures.values(":v", 1), null),
        ErrorType.ValidationException,
        INVALID + "Cannot update attribute Id. This attribute is part of the key");
    expect(() -> db.updateItem(new UpdateItemRequest("Music",
            item("Artist", "a", "SongTitle", "b"), "SET x = :v REMOVE #s", null,
            names("#s", "SongTitle"), Fixtures.values(":v", 1), null, null, null, null, null,
            null, null)),
        ErrorType.ValidationException,
        INVALID + "Cannot update attribute SongTitle. This attribute is part of the key");
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, null, null,
            null, null, null, null, null, null,
            Map.of("Id", new AttributeValueUpdate(n("2"), "PUT")), null, null)),
        ErrorType.ValidationException,
        INVALID + "Cannot update attribute Id. This attribute is part of the key");
    assertThat(product()).isNull();
  }

  @Test
  void keyValidationAsInPutAndDelete() {
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", item("Id", "789"),
            "SET a = :v", null, null, Fixtures.values(":v", 1), null, null, null, null, null,
            null, null)),
        ErrorType.ValidationException, "The provided key element does not match the schema");
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", item("Id", 1, "x", 2),
            "SET a = :v", null, null, Fixtures.values(":v", 1), null, null, null, null, null,
            null, null)),
        ErrorType.ValidationException, "The provided key element does not match the schema");
    expect(() -> db.updateItem(new UpdateItemRequest("Music", item("Artist", "", "SongTitle",
            "t"), "SET a = :v", null, null, Fixtures.values(":v", 1), null, null, null, null,
            null, null, null)),
        ErrorType.ValidationException,
        INVALID + "The AttributeValue for a key attribute cannot contain an empty string value."
            + " Key: Artist");
    expect(() -> db.updateItem(new UpdateItemRequest("Nope", PRODUCT, "SET a = :v", null, null,
            Fixtures.values(":v", 1), null, null, null, null, null, null, null)),
        ErrorType.ResourceNotFoundException, "Requested resource not found");
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", null, "SET a = :v", null,
            null, Fixtures.values(":v", 1), null, null, null, null, null, null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value null at 'key' failed to satisfy constraint: Member"
            + " must not be null");
    expect(() -> run("SET a = :v", null, Fixtures.values(":v", 1), "EVERYTHING"),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'EVERYTHING' at 'returnValues' failed to satisfy"
            + " constraint: Member must satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD,"
            + " ALL_NEW, UPDATED_NEW]");
  }

  @Test
  void unusedPlaceholdersAcrossBothExpressions() {
    // a value used only by the condition and a name used only by the update are both used
    put(db, "ProductCatalog", item("Id", 789, "v", 1));
    db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, "SET #a = v", "v = :one",
        names("#a", "copy"), Fixtures.values(":one", 1), null, null, null, null, null, null,
        null));
    assertThat(product()).containsEntry("copy", n("1"));
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, "SET a = :one",
            "v = :one", names("#unused", "x"), Fixtures.values(":one", 1), null, null, null,
            null, null, null, null)),
        ErrorType.ValidationException,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}");
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, "SET a = :one",
            "v = :one", null, Fixtures.values(":one", 1, ":two", 2, ":three", 3), null, null,
            null, null, null, null, null)),
        ErrorType.ValidationException,
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:two,"
            + " :three}");
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, null, null, null,
            Fixtures.values(":one", 1), null, null, null, null, null, null, null)),
        ErrorType.ValidationException,
        "ExpressionAttributeValues can only be specified when using expressions:"
            + " UpdateExpression and ConditionExpression are null");
  }

  @Test
  void mixingLegacyAndExpressionParameters() {
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, "SET a = :v",
            null, null, Fixtures.values(":v", 1), null, null, null, null,
            Map.of("b", new AttributeValueUpdate(n("1"), "PUT")), null, null)),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {AttributeUpdates} Expression parameters:"
            + " {UpdateExpression}");
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, "SET a = :v",
            null, null, Fixtures.values(":v", 1), null, null, null, null, null,
            Map.of("a", new ExpectedAttributeValue(null, false, null, null)), null)),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {Expected} Expression parameters:"
            + " {UpdateExpression}");
  }

  @Test
  void itemOperandAndPathErrorsWriteNothing() {
    put(db, "ProductCatalog", item("Id", 789, "s", "text", "l", list(n("1"))));
    expect(() -> run("SET n = nothere + :one", null, Fixtures.values(":one", 1), null),
        ErrorType.ValidationException,
        "The provided expression refers to an attribute that does not exist in the item");
    expect(() -> run("SET n = s + :one", null, Fixtures.values(":one", 1), null),
        ErrorType.ValidationException,
        "An operand in the update expression has an incorrect data type");
    expect(() -> run("SET nope.x = :one", null, Fixtures.values(":one", 1), null),
        ErrorType.ValidationException,
        "The document path provided in the update expression is invalid for update");
    expect(() -> run("ADD s :one", null, Fixtures.values(":one", 1), null),
        ErrorType.ValidationException,
        "An operand in the update expression has an incorrect data type");
    assertThat(product()).isEqualTo(item("Id", 789, "s", "text", "l", list(n("1"))));
  }

  @Test
  void theNewItemMustFitIn400Kb() {
    String half = "x".repeat(210 * 1024);
    run("SET a = :v", null, Fixtures.values(":v", half), null);
    expect(() -> run("SET b = :v", null, Fixtures.values(":v", half), null),
        ErrorType.ValidationException,
        "Item size to update has exceeded the maximum allowed size");
    assertThat(product()).doesNotContainKey("b");
  }

  // ---- legacy AttributeUpdates and Expected ------------------------------------------------

  private UpdateItemRequest legacy(
      Map<String, AttributeValueUpdate> updates, Map<String, ExpectedAttributeValue> expected,
      String returnValues) {
    return new UpdateItemRequest("ProductCatalog", PRODUCT, null, null, null, null,
        returnValues, null, null, null, updates, expected, null);
  }

  private static Map<String, AttributeValueUpdate> updates(Object... nameActionValue) {
    Map<String, AttributeValueUpdate> m = new LinkedHashMap<>();
    for (int i = 0; i < nameActionValue.length; i += 3) {
      m.put((String) nameActionValue[i], new AttributeValueUpdate(
          (AttributeValue) nameActionValue[i + 2], (String) nameActionValue[i + 1]));
    }
    return m;
  }

  @Test
  void attributeUpdatesPutAddDelete() {
    assertThat(db.updateItem(legacy(updates("title", "PUT", s("Bicycle"), "count", "ADD", n("2"),
        "tags", "ADD", ss("a", "b"), "parts", "ADD", list(s("wheel"))), null, "ALL_NEW"))
        .attributes())
        .isEqualTo(item("Id", 789, "title", "Bicycle", "count", 2, "tags", ss("a", "b"),
            "parts", list(s("wheel"))));
    // a null Action is PUT
    Map<String, AttributeValue> updatedOld = db.updateItem(legacy(updates(
        "title", null, s("Tandem"), "count", "ADD", n("-5"), "tags", "DELETE", ss("a"),
        "parts", "ADD", list(s("bell")), "gone", "DELETE", null), null, "UPDATED_OLD"))
        .attributes();
    assertThat(updatedOld).isEqualTo(item("title", "Bicycle", "count", 2, "tags", ss("a", "b"),
        "parts", list(s("wheel"))));
    assertThat(product()).isEqualTo(item("Id", 789, "title", "Tandem", "count", -3,
        "tags", ss("b"), "parts", list(s("wheel"), s("bell"))));
    db.updateItem(legacy(updates("title", "DELETE", null, "tags", "DELETE", ss("b")), null,
        null));
    assertThat(product()).isEqualTo(item("Id", 789, "count", -3,
        "parts", list(s("wheel"), s("bell"))));
  }

  @Test
  void attributeUpdatesValidation() {
    expect(() -> db.updateItem(legacy(updates("a", "PUT", null), null, null)),
        ErrorType.ValidationException,
        INVALID + "Only DELETE action is allowed when no attribute value is specified");
    expect(() -> db.updateItem(legacy(updates("a", "DELETE", s("x")), null, null)),
        ErrorType.ValidationException,
        INVALID + "DELETE action with value is not supported for the type S");
    expect(() -> db.updateItem(legacy(updates("a", "ADD", s("x")), null, null)),
        ErrorType.ValidationException,
        INVALID + "ADD action is not supported for the type S");
    expect(() -> db.updateItem(legacy(updates("a", "REPLACE", s("x")), null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'REPLACE' at 'attributeUpdates.a.member.action'"
            + " failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT,"
            + " DELETE]");
    put(db, "ProductCatalog", item("Id", 789, "a", "text"));
    expect(() -> db.updateItem(legacy(updates("a", "ADD", n("1")), null, null)),
        ErrorType.ValidationException, "Type mismatch for attribute to update");
    expect(() -> db.updateItem(legacy(updates("a", "DELETE", ss("x")), null, null)),
        ErrorType.ValidationException, "Type mismatch for attribute to update");
    assertThat(product()).isEqualTo(item("Id", 789, "a", "text"));
  }

  @Test
  void expectedGuardsAnUpdate() {
    Map<String, ExpectedAttributeValue> absent =
        Map.of("Id", new ExpectedAttributeValue(null, false, null, null));
    db.updateItem(legacy(updates("v", "PUT", n("1")), absent, null));
    expect(() -> db.updateItem(legacy(updates("v", "PUT", n("2")), absent, null)),
        ErrorType.ConditionalCheckFailedException, "The conditional request failed");
    Map<String, ExpectedAttributeValue> isOne =
        Map.of("v", new ExpectedAttributeValue(n("1"), null, null, null));
    db.updateItem(legacy(updates("v", "ADD", n("1")), isOne, null));
    assertThat(product()).isEqualTo(item("Id", 789, "v", 2));
    // Expected may come with an UpdateExpression-less request that only sets via legacy updates,
    // but not with a ConditionExpression
    expect(() -> db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, null,
            "attribute_exists(v)", null, null, null, null, null, null, null, isOne, null)),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {Expected} Expression parameters:"
            + " {ConditionExpression}");
  }

  // ---- concurrency -------------------------------------------------------------------------

  /** N threads incrementing one counter: every successful update is counted, none is lost. */
  @Test
  void concurrentIncrementsLoseNoUpdate() throws Exception {
    put(db, "ProductCatalog", item("Id", 789, "n", 0));
    int threads = 8;
    int perThread = spec.contended(250);
    AtomicInteger succeeded = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            db.updateItem(update("SET n = n + :one", null, Fixtures.values(":one", 1), null));
            succeeded.incrementAndGet();
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(succeeded.get()).isEqualTo(threads * perThread);
    assertThat(product().get("n")).isEqualTo(n(Integer.toString(succeeded.get())));
  }

  /** Racing creators of a missing item: each ADD lands once, none overwrites another. */
  @Test
  void concurrentAddsOnAMissingItemCreateItOnce() throws Exception {
    int threads = 6;
    int perThread = spec.contended(100);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String member = "t" + t;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            db.updateItem(update("ADD c :one, members :me", null,
                Map.of(":one", n("1"), ":me", ss(member + "-" + i)), null));
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(product().get("c")).isEqualTo(n(Integer.toString(threads * perThread)));
    assertThat(((AttributeValue.SS) product().get("members")).value())
        .hasSize(threads * perThread);
  }

  /** Conditional increments racing: exactly the updates that saw the expected value win. */
  @Test
  void concurrentCompareAndSetLetsOneWriterWinPerValue() throws Exception {
    put(db, "ProductCatalog", item("Id", 789, "n", 0));
    int threads = 6;
    AtomicInteger wins = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 200; i++) {
            AttributeValue seen = product().get("n");
            try {
              db.updateItem(new UpdateItemRequest("ProductCatalog", PRODUCT, "SET n = n + :one",
                  "n = :seen", null, Map.of(":one", n("1"), ":seen", seen), null, null, null,
                  null, null, null, null));
              wins.incrementAndGet();
            } catch (DynamoDbException e) {
              assertThat(e.type()).isEqualTo(ErrorType.ConditionalCheckFailedException);
            }
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(wins.get()).isPositive();
    assertThat(product().get("n")).isEqualTo(n(Integer.toString(wins.get())));
  }
}
