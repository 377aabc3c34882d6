package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * UpdateItem with an UpdateExpression: the developer guide's walk through the ProductCatalog
 * item 789 (SET, list_append, if_not_exists, arithmetic, REMOVE of attributes and list elements,
 * ADD and DELETE), nested paths and their rules for missing parents and list growth, creating
 * the item, ReturnValues, 38-digit arithmetic and the errors that depend on the item.
 *
 * <p>Where the peer implementation used to check these expectations differs, DynamoDB's
 * documented behaviour is kept (the assertions are skipped on an external endpoint):
 *
 * <ul>
 *   <li>Several list elements in one REMOVE: the peer removes them one after the other, so the
 *       indexes shift and {@code REMOVE RelatedItems[1], RelatedItems[2]} removes the original
 *       elements 1 and 3. DynamoDB evaluates every path of an update expression against the item
 *       as it was before the update, so the original elements 1 and 2 go.
 *   <li>Arithmetic beyond the number range: the peer stores the result; DynamoDB's numbers have
 *       "Positive range: 1E-130 to 9.9999999999999999999999999999999999999E+125" and an update
 *       beyond it is a ValidationException "Number overflow...".
 * </ul>
 */
class UpdateExpressionTest extends EndToEndTest {
  private static final ScalarAttributeType N = ScalarAttributeType.N;
  private static final Map<String, AttributeValue> KEY = Map.of("Id", AttributeValue.fromN("789"));

  private String table;

  private void productTable() {
    table = createTable("update", "Id", N);
    dynamo.putItem(r -> r.tableName(table).item(item(
        "Id", n("789"),
        "ProductCategory", s("Home Improvement"),
        "Price", n("52"),
        "InStock", AttributeValue.fromBool(true),
        "Brand", s("Acme"))));
  }

  private UpdateItemResponse update(String expression, Object... valuesAndNames) {
    return update(ReturnValue.NONE, expression, valuesAndNames);
  }

  private UpdateItemResponse update(
      ReturnValue returnValues, String expression, Object... valuesAndNames) {
    UpdateItemRequest.Builder request = UpdateItemRequest.builder()
        .tableName(table).key(KEY).updateExpression(expression).returnValues(returnValues);
    request.expressionAttributeValues(attributeValues(valuesAndNames))
        .expressionAttributeNames(attributeNames(valuesAndNames));
    return dynamo.updateItem(request.build());
  }

  private Map<String, AttributeValue> product() {
    return dynamo.getItem(r -> r.tableName(table).key(KEY).consistentRead(true)).item();
  }

  // ---- the developer guide's walk-through ----------------------------------------------------

  @Test
  void developerGuideWalkThrough() {
    productTable();

    // Setting attributes.
    UpdateItemResponse set = update(ReturnValue.ALL_NEW, "SET ProductCategory = :c, Price = :p",
        ":c", s("Hardware"), ":p", n("60"));
    assertThat(set.attributes()).isEqualTo(item(
        "Id", n("789"), "ProductCategory", s("Hardware"), "Price", n("60"),
        "InStock", AttributeValue.fromBool(true), "Brand", s("Acme")));

    // Adding lists and maps.
    update("SET #ri = :ri, #pr = :pr",
        "#ri", "RelatedItems", "#pr", "ProductReviews",
        ":ri", l(s("Hammer")),
        ":pr", m(item("FiveStar", l(s("Best product ever!")))));
    assertThat(product().get("RelatedItems")).isEqualTo(l(s("Hammer")));

    // Adding an element to a list, and nested map attributes.
    update("SET #ri[1] = :ri", "#ri", "RelatedItems", ":ri", s("Nails"));
    update("SET #pr.#5star[1] = :r5, #pr.#3star = :r3",
        "#pr", "ProductReviews", "#5star", "FiveStar", "#3star", "ThreeStar",
        ":r5", s("Very happy with my purchase"),
        ":r3", l(s("Just OK - not that great")));
    assertThat(product().get("ProductReviews")).isEqualTo(m(item(
        "FiveStar", l(s("Best product ever!"), s("Very happy with my purchase")),
        "ThreeStar", l(s("Just OK - not that great")))));

    // Incrementing and decrementing.
    update("SET Price = Price - :p", ":p", n("15"));
    assertThat(product().get("Price")).isEqualTo(n("45"));

    // Appending and prepending to a list.
    update("SET #ri = list_append(#ri, :vals)",
        "#ri", "RelatedItems", ":vals", l(s("Screwdriver"), s("Hacksaw")));
    update("SET #ri = list_append(:vals, #ri)", "#ri", "RelatedItems", ":vals", l(s("Chisel")));
    assertThat(product().get("RelatedItems")).isEqualTo(
        l(s("Chisel"), s("Hammer"), s("Nails"), s("Screwdriver"), s("Hacksaw")));

    // Preventing overwrites of an existing attribute.
    update("SET Price = if_not_exists(Price, :p)", ":p", n("100"));
    assertThat(product().get("Price")).isEqualTo(n("45"));

    // Removing attributes, and elements from a list (indexes of the list before the update).
    update("REMOVE Brand, InStock, QuantityOnHand");
    assertThat(product()).doesNotContainKeys("Brand", "InStock", "QuantityOnHand");
    update("REMOVE RelatedItems[1], RelatedItems[2]");
    if (onPeer()) {
      return;
    }
    assertThat(product().get("RelatedItems"))
        .isEqualTo(l(s("Chisel"), s("Screwdriver"), s("Hacksaw")));

    // ADD: a number starts from 0, a set is created.
    update("ADD QuantityOnHand :q", ":q", n("5"));
    assertThat(product().get("QuantityOnHand")).isEqualTo(n("5"));
    update("ADD Color :c", ":c", ss("Orange", "Purple"));
    assertThat(product().get("Color").ss()).containsExactlyInAnyOrder("Orange", "Purple");

    // DELETE removes members; members not in the set are ignored.
    update("DELETE Color :p", ":p", ss("Yellow", "Purple"));
    assertThat(product().get("Color").ss()).containsExactly("Orange");

    assertThat(product()).isEqualTo(item(
        "Id", n("789"),
        "ProductCategory", s("Hardware"),
        "Price", n("45"),
        "RelatedItems", l(s("Chisel"), s("Screwdriver"), s("Hacksaw")),
        "ProductReviews", m(item(
            "FiveStar", l(s("Best product ever!"), s("Very happy with my purchase")),
            "ThreeStar", l(s("Just OK - not that great")))),
        "QuantityOnHand", n("5"),
        "Color", ss("Orange")));
  }

  // ---- SET -----------------------------------------------------------------------------------

  @Test
  void setArithmeticWithOperandsOfAnyKind() {
    productTable();
    update("SET A = :one + :two, B = Price + Price, C = :ten - Price", ":one", n("1"),
        ":two", n("2"), ":ten", n("10"));
    Map<String, AttributeValue> item = product();
    assertThat(item.get("A")).isEqualTo(n("3"));
    assertThat(item.get("B")).isEqualTo(n("104"));
    assertThat(item.get("C")).isEqualTo(n("-42"));
    // Arithmetic keeps 38 significant digits: no floating point.
    update("SET Big = :big", ":big", n("12345678901234567890123456789012345678"));
    update("SET Big = Big - :one", ":one", n("1"));
    assertThat(product().get("Big")).isEqualTo(n("12345678901234567890123456789012345677"));
    update("SET Small = :a + :b", ":a", n("0.1"), ":b", n("0.2"));
    assertThat(product().get("Small")).isEqualTo(n("0.3"));
    // Every action reads the item as it was: B becomes the old Price, not the new one.
    update("SET Price = :p, Previous = Price", ":p", n("1"));
    assertThat(product().get("Previous")).isEqualTo(n("52"));
    assertThat(product().get("Price")).isEqualTo(n("1"));
  }

  @Test
  void ifNotExistsAndListAppend() {
    productTable();
    update("SET Visits = if_not_exists(Visits, :zero) + :one", ":zero", n("0"), ":one", n("1"));
    update("SET Visits = if_not_exists(Visits, :zero) + :one", ":zero", n("0"), ":one", n("1"));
    assertThat(product().get("Visits")).isEqualTo(n("2"));
    update("SET Entries = list_append(if_not_exists(Entries, :empty), :entry)",
        ":empty", l(), ":entry", l(s("first")));
    update("SET Entries = list_append(if_not_exists(Entries, :empty), :entry)",
        ":empty", l(), ":entry", l(s("second")));
    assertThat(product().get("Entries")).isEqualTo(l(s("first"), s("second")));
    update("SET Twice = list_append(Entries, Entries)");
    assertThat(product().get("Twice"))
        .isEqualTo(l(s("first"), s("second"), s("first"), s("second")));
  }

  @Test
  void nestedPathsMissingParentsAndListGrowth() {
    productTable();
    update("SET Doc = :doc", ":doc", m(item(
        "list", l(s("a"), s("b")),
        "dict", m(item("k", s("v"))))));
    // A new key of an existing map is created.
    update("SET Doc.dict.k2 = :v", ":v", n("2"));
    // An index past the end appends at the end.
    update("SET Doc.#l[10] = :v", "#l", "list", ":v", s("c"));
    // An index inside replaces.
    update("SET Doc.#l[0] = :v", "#l", "list", ":v", s("A"));
    assertThat(product().get("Doc")).isEqualTo(m(item(
        "list", l(s("A"), s("b"), s("c")),
        "dict", m(item("k", s("v"), "k2", n("2"))))));

    // A missing parent is an error, and nothing changes.
    String invalid = "The document path provided in the update expression is invalid for update";
    assertValidation(invalid, () -> update("SET Doc.nothing.k = :v", ":v", n("1")));
    assertValidation(invalid, () -> update("SET Nothing.k = :v", ":v", n("1")));
    assertValidation(invalid, () -> update("SET Nothing[0] = :v", ":v", n("1")));
    // An index into a map, or a key into a list, is an error too.
    assertValidation(invalid, () -> update("SET Doc.dict[0] = :v", ":v", n("1")));
    assertValidation(invalid, () -> update("SET Doc.#l.k = :v", "#l", "list", ":v", n("1")));
    assertThat(product().get("Doc").m()).containsOnlyKeys("list", "dict");
  }

  @Test
  void removeAttributesMapKeysAndListElements() {
    productTable();
    update("SET Doc = :doc, Tags = :tags", ":doc", m(item("a", n("1"), "b", n("2"))),
        ":tags", l(s("t0"), s("t1"), s("t2"), s("t3")));
    update("REMOVE Doc.a, Tags[0], Tags[2], Tags[9], Nothing, Doc.nothing");
    Map<String, AttributeValue> item = product();
    assertThat(item.get("Doc")).isEqualTo(m(item("b", n("2"))));
    if (!onPeer()) {
      assertThat(item.get("Tags")).isEqualTo(l(s("t1"), s("t3")));
    }
    update("REMOVE Doc.b");
    assertThat(product().get("Doc")).isEqualTo(m(Map.of()));
  }

  // ---- ADD and DELETE ------------------------------------------------------------------------

  @Test
  void addToNumbersAndSets() {
    productTable();
    update("ADD Price :p", ":p", n("-2.5"));
    assertThat(product().get("Price")).isEqualTo(n("49.5"));
    update("ADD Nums :n, Bins :b", ":n", AttributeValue.fromNs(List.of("1", "2")),
        ":b", AttributeValue.fromBs(List.of(b(1).b())));
    update("ADD Nums :n, Bins :b", ":n", AttributeValue.fromNs(List.of("2.0", "3")),
        ":b", AttributeValue.fromBs(List.of(b(1).b(), b(2).b())));
    assertThat(product().get("Nums").ns()).containsExactlyInAnyOrder("1", "2", "3");
    assertThat(product().get("Bins").bs()).containsExactlyInAnyOrder(b(1).b(), b(2).b());

    // Adding to another type is an error.
    String wrongType = "An operand in the update expression has an incorrect data type";
    assertValidation(wrongType, () -> update("ADD Brand :n", ":n", n("1")));
    assertValidation(wrongType, () -> update("ADD Nums :s", ":s", ss("x")));
    assertValidation(wrongType, () -> update("ADD Price :s", ":s", ss("x")));
  }

  @Test
  void deleteFromSetsAndTheEmptySetDisappears() {
    productTable();
    update("SET Color = :c, Nums = :n", ":c", ss("Red", "Blue"),
        ":n", AttributeValue.fromNs(List.of("1", "2")));
    update("DELETE Nums :n", ":n", AttributeValue.fromNs(List.of("1.0")));
    assertThat(product().get("Nums").ns()).containsExactly("2");
    update("DELETE Color :c", ":c", ss("Red", "Blue", "Green"));
    assertThat(product()).doesNotContainKey("Color");
    // Deleting from a missing attribute does nothing.
    update("DELETE Nothing :c", ":c", ss("Red"));
    assertThat(product()).doesNotContainKey("Nothing");
    assertValidation("An operand in the update expression has an incorrect data type",
        () -> update("DELETE Nums :c", ":c", ss("Red")));
  }

  @Test
  void allFourClausesInOneExpressionInAnyOrder() {
    productTable();
    update("SET Color = :c", ":c", ss("Red", "Blue"));
    update("REMOVE Brand DELETE Color :d ADD QuantityOnHand :q SET Price = Price + :q",
        ":d", ss("Red"), ":q", n("3"));
    update("set Title = :t remove InStock", ":t", s("lower-case keywords"));
    assertThat(product()).isEqualTo(item(
        "Id", n("789"), "ProductCategory", s("Home Improvement"), "Price", n("55"),
        "Color", ss("Blue"), "QuantityOnHand", n("3"), "Title", s("lower-case keywords")));
  }

  // ---- creating the item ---------------------------------------------------------------------

  @Test
  void updateCreatesAMissingItem() {
    table = createTable("update-create", "Id", N);
    UpdateItemResponse created = update(ReturnValue.ALL_OLD,
        "SET Title = :t ADD Visits :one, Tags :tag",
        ":t", s("New"), ":one", n("1"), ":tag", ss("new"));
    assertThat(created.hasAttributes()).isFalse();
    assertThat(product()).isEqualTo(item(
        "Id", n("789"), "Title", s("New"), "Visits", n("1"), "Tags", ss("new")));
  }

  @Test
  void updateWithoutAnExpressionCreatesTheKeyOnly() {
    table = createTable("update-key-only", "Id", N);
    UpdateItemResponse response = dynamo.updateItem(r -> r.tableName(table).key(KEY)
        .returnValues(ReturnValue.ALL_NEW));
    assertThat(response.attributes()).isEqualTo(item("Id", n("789")));
    assertThat(product()).isEqualTo(item("Id", n("789")));
  }

  @Test
  void returnValuesOfAddAndDelete() {
    productTable();
    update("SET Color = :c", ":c", ss("Red", "Blue"));
    UpdateItemResponse added = update(ReturnValue.UPDATED_NEW, "ADD Color :c, Stock :n",
        ":c", ss("Green"), ":n", n("2"));
    assertThat(added.attributes()).containsOnlyKeys("Color", "Stock");
    assertThat(added.attributes().get("Color").ss())
        .containsExactlyInAnyOrder("Red", "Blue", "Green");
    assertThat(added.attributes().get("Stock")).isEqualTo(n("2"));
    UpdateItemResponse deleted = update(ReturnValue.UPDATED_OLD, "DELETE Color :c",
        ":c", ss("Red", "Blue", "Green"));
    assertThat(deleted.attributes().get("Color").ss())
        .containsExactlyInAnyOrder("Red", "Blue", "Green");
    // The set is gone, so UPDATED_NEW has nothing to return for it.
    update("SET Color = :c", ":c", ss("Red"));
    assertThat(update(ReturnValue.UPDATED_NEW, "DELETE Color :c", ":c", ss("Red"))
        .attributes()).isEmpty();
  }

  // ---- ReturnValues --------------------------------------------------------------------------

  @Test
  void returnValuesNameExactlyTheUpdatedAttributes() {
    productTable();
    String expression = "SET Price = :p, Title = :t REMOVE Brand";
    Object[] values = {":p", n("60"), ":t", s("Hammer")};

    assertThat(update(ReturnValue.NONE, expression, values).hasAttributes()).isFalse();

    productTable();
    // Price and Brand existed; Title did not.
    assertThat(update(ReturnValue.UPDATED_OLD, expression, values).attributes())
        .isEqualTo(item("Price", n("52"), "Brand", s("Acme")));

    productTable();
    assertThat(update(ReturnValue.UPDATED_NEW, expression, values).attributes())
        .isEqualTo(item("Price", n("60"), "Title", s("Hammer")));

    productTable();
    assertThat(update(ReturnValue.ALL_OLD, expression, values).attributes()).isEqualTo(item(
        "Id", n("789"), "ProductCategory", s("Home Improvement"), "Price", n("52"),
        "InStock", AttributeValue.fromBool(true), "Brand", s("Acme")));

    productTable();
    assertThat(update(ReturnValue.ALL_NEW, expression, values).attributes()).isEqualTo(item(
        "Id", n("789"), "ProductCategory", s("Home Improvement"), "Price", n("60"),
        "InStock", AttributeValue.fromBool(true), "Title", s("Hammer")));
  }

  @Test
  void returnValuesOfNestedUpdatesAreTheUpdatedParts() {
    productTable();
    update("SET Doc = :doc", ":doc", m(item(
        "list", l(s("a"), s("b")), "dict", m(item("k", s("v"), "other", s("o"))))));
    UpdateItemResponse updatedNew = update(ReturnValue.UPDATED_NEW,
        "SET Doc.dict.k = :v, Doc.#l[1] = :w", "#l", "list", ":v", s("V"), ":w", s("B"));
    assertThat(updatedNew.attributes())
        .isEqualTo(item("Doc", m(item("list", l(s("B")), "dict", m(item("k", s("V")))))));
    UpdateItemResponse updatedOld = update(ReturnValue.UPDATED_OLD,
        "SET Doc.dict.k = :v", ":v", s("again"));
    assertThat(updatedOld.attributes())
        .isEqualTo(item("Doc", m(item("dict", m(item("k", s("V")))))));
  }

  // ---- errors that depend on the item --------------------------------------------------------

  @Test
  void operandsOfTheWrongTypeOrMissing() {
    productTable();
    String wrongType = "An operand in the update expression has an incorrect data type";
    assertValidation(wrongType, () -> update("SET Brand = Brand + :one", ":one", n("1")));
    assertValidation(wrongType, () -> update("SET L = list_append(Brand, :l)", ":l", l()));
    assertValidation("The provided expression refers to an attribute that does not exist in the "
        + "item", () -> update("SET Price = Nothing + :one", ":one", n("1")));
    assertValidation("The provided expression refers to an attribute that does not exist in the "
        + "item", () -> update("SET Twin = Nothing"));
    assertThat(product().get("Price")).isEqualTo(n("52"));
  }

  @Test
  void arithmeticOverflowAndUnderflow() {
    productTable();
    update("SET Huge = :huge", ":huge", n("9.9999999999999999999999999999999999999E+125"));
    AttributeValue huge = product().get("Huge");
    if (onPeer()) {
      return;
    }
    assertValidation("Number overflow. Attempting to store a number with magnitude larger than "
        + "supported range", () -> update("SET Huge = Huge + :more", ":more", n("1E+125")));
    assertValidation("Number overflow. Attempting to store a number with magnitude larger than "
        + "supported range", () -> update("ADD Huge :more", ":more", n("1E+125")));
    assertValidation("Number overflow. Attempting to store a number with magnitude larger than "
        + "supported range", () -> update("SET Neg = :neg - Huge",
        ":neg", n("-1E+125")));
    assertThat(product().get("Huge")).isEqualTo(huge);
    assertThat(product()).doesNotContainKey("Neg");
  }

  @Test
  void arithmeticWhoseExactResultNeedsMoreThan38DigitsIsRefusedNotRounded() {
    productTable();
    String overflow = "Number overflow. Attempting to store a number with magnitude larger than "
        + "supported range";
    // 1E50 - 1 and 1E50 + 1 need 50 and 51 digits; DynamoDB refuses them (with its overflow
    // words, as recorded) where rounding to 38 digits would store 1E50.
    assertValidation(overflow, () -> update("SET Big = :big - :one", ":big", n("1E50"),
        ":one", n("1")));
    assertValidation(overflow, () -> update("SET Big = :big + :one", ":big", n("1E50"),
        ":one", n("1")));
    update("SET Big = :big", ":big", n("99999999999999999999999999999999999999"));
    assertValidation(overflow, () -> update("SET Big = Big + :one", ":one", n("1E-1")));
    assertValidation(overflow, () -> update("ADD Big :one", ":one", n("1E-1")));
    assertThat(product().get("Big")).isEqualTo(n("99999999999999999999999999999999999999"));
    // 38 digits exactly, and a sum whose trailing zeros leave 38 significant digits, are kept.
    update("SET Big = Big + :one", ":one", n("1"));
    assertThat(product().get("Big")).isEqualTo(n("100000000000000000000000000000000000000"));
    update("SET Small = :a - :b", ":a", n("0.12345678901234567890123456789012345678"),
        ":b", n("0.00000000000000000000000000000000000008"));
    assertThat(product().get("Small")).isEqualTo(n("0.1234567890123456789012345678901234567"));
  }

  /**
   * Whether the run is against the peer implementation, which is known to differ from DynamoDB
   * on the assertions so guarded (see the class comment).
   */
  private boolean onPeer() {
    return endpoint.target() == Target.EXTERNAL;
  }
}
