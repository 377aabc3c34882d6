package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * ConditionExpression on PutItem, UpdateItem and DeleteItem: every comparator, BETWEEN, IN,
 * AND/OR/NOT precedence, every function (with the examples of DynamoDB's developer guide on its
 * ProductCatalog item), size on each type, comparisons of different types, and
 * ConditionalCheckFailedException with and without ReturnValuesOnConditionCheckFailure.
 *
 * <p>Each condition is checked by a conditional PutItem that writes the item unchanged: it
 * succeeds when the condition holds and fails with ConditionalCheckFailedException otherwise.
 *
 * <p>Where the peer implementation used to check these expectations differs, DynamoDB's
 * documented behaviour is kept:
 *
 * <ul>
 *   <li>Equality of lists: the peer finds two equal lists unequal; DynamoDB's reference says
 *       "EQ is supported for all data types, including lists and maps".
 *   <li>ReturnValuesOnConditionCheckFailure=ALL_OLD: the peer predates the parameter and returns
 *       no item on the exception; DynamoDB's reference says "Use
 *       ReturnValuesOnConditionCheckFailure to get the item attributes if the PutItem condition
 *       fails. For ReturnValuesOnConditionCheckFailure, the valid values are: NONE and ALL_OLD."
 *       The item assertions are skipped on an external endpoint.
 * </ul>
 */
class ConditionExpressionTest extends EndToEndTest {
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  /** The developer guide's ProductCatalog item 456, with a few attributes of the other types. */
  static Map<String, AttributeValue> product() {
    return item(
        "Id", n("456"),
        "ProductCategory", s("Sporting Goods"),
        "Title", s("Bicycle 456"),
        "Brand", s("Brand-Company C"),
        "Price", n("650"),
        "Color", AttributeValue.fromSs(List.of("Red", "Black")),
        "Sizes", AttributeValue.fromNs(List.of("1", "2", "3")),
        "Codes", AttributeValue.fromBs(List.of(
            SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromByteArray(new byte[] {2}))),
        "InStock", AttributeValue.fromBool(true),
        "Discontinued", AttributeValue.fromNul(true),
        "VideoClip", b(0x00, 0x10, 0x80, 0xff, 0x20),
        "Pictures", m(item(
            "FrontView", s("http://example.com/products/456_front.jpg"),
            "RearView", s("http://example.com/products/456_rear.jpg"),
            "SideView", s("http://example.com/products/456_left_side.jpg"))),
        "ProductReviews", m(item(
            "FiveStar", l(
                s("Excellent! Can't recommend it highly enough! Buy it!"),
                s("Do yourself a favor and buy this.")),
            "OneStar", l(s("Terrible product! Do not buy this.")))),
        "RelatedItems", l(n("341"), n("472"), n("649")),
        "Tags", l(s("bike"), n("7")));
  }

  private String table;

  private String productTable() {
    table = createTable("condition", "Id", N);
    dynamo.putItem(r -> r.tableName(table).item(product()));
    return table;
  }

  /** Whether the condition holds for the product: a conditional put of the unchanged item. */
  private boolean holds(String condition, Object... valuesAndNames) {
    try {
      dynamo.putItem(r -> r.tableName(table).item(product())
          .conditionExpression(condition)
          .expressionAttributeValues(attributeValues(valuesAndNames))
          .expressionAttributeNames(attributeNames(valuesAndNames)));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  // ---- comparators ---------------------------------------------------------------------------

  @Test
  void comparatorsOnNumbers() {
    productTable();
    assertThat(holds("Price = :v", ":v", n("650"))).isTrue();
    assertThat(holds("Price = :v", ":v", n("650.0"))).isTrue();
    assertThat(holds("Price = :v", ":v", n("651"))).isFalse();
    assertThat(holds("Price <> :v", ":v", n("651"))).isTrue();
    assertThat(holds("Price <> :v", ":v", n("650"))).isFalse();
    assertThat(holds("Price < :v", ":v", n("650.5"))).isTrue();
    assertThat(holds("Price < :v", ":v", n("650"))).isFalse();
    assertThat(holds("Price <= :v", ":v", n("650"))).isTrue();
    assertThat(holds("Price <= :v", ":v", n("649.99"))).isFalse();
    assertThat(holds("Price > :v", ":v", n("-1E+3"))).isTrue();
    assertThat(holds("Price > :v", ":v", n("650"))).isFalse();
    assertThat(holds("Price >= :v", ":v", n("650"))).isTrue();
    assertThat(holds("Price >= :v", ":v", n("6.5E+2"))).isTrue();
    assertThat(holds("Price >= :v", ":v", n("1E+3"))).isFalse();
    // Two paths may be compared with each other.
    assertThat(holds("Price > RelatedItems[2]")).isTrue();
    assertThat(holds("Price < RelatedItems[2]")).isFalse();
  }

  @Test
  void stringsCompareByUtf8BytesAndBinariesAsUnsignedBytes() {
    productTable();
    assertThat(holds("Title = :v", ":v", s("Bicycle 456"))).isTrue();
    assertThat(holds("Title < :v", ":v", s("Bicycle 457"))).isTrue();
    assertThat(holds("Title > :v", ":v", s("Bicycle"))).isTrue();
    // 'B' (0x42) sorts before 'a' (0x61): byte order, not case-insensitive order.
    assertThat(holds("Title < :v", ":v", s("a"))).isTrue();
    assertThat(holds("VideoClip = :v", ":v", b(0x00, 0x10, 0x80, 0xff, 0x20))).isTrue();
    // 0x80 is 128 unsigned, so it is greater than 0x7f.
    assertThat(holds("VideoClip > :v", ":v", b(0x00, 0x10, 0x7f))).isTrue();
    assertThat(holds("VideoClip < :v", ":v", b(0x00, 0x11))).isTrue();
  }

  @Test
  void documentsSetsAndBooleansSupportOnlyEquality() {
    productTable();
    assertThat(holds("Color = :v", ":v", AttributeValue.fromSs(List.of("Black", "Red"))))
        .isTrue();
    assertThat(holds("Color = :v", ":v", AttributeValue.fromSs(List.of("Red")))).isFalse();
    if (!onPeer()) {
      assertThat(holds("RelatedItems = :v", ":v", l(n("341"), n("472"), n("649")))).isTrue();
    }
    assertThat(holds("RelatedItems = :v", ":v", l(n("472"), n("341"), n("649")))).isFalse();
    assertThat(holds("Pictures.FrontView = :v",
        ":v", s("http://example.com/products/456_front.jpg"))).isTrue();
    assertThat(holds("InStock = :v", ":v", AttributeValue.fromBool(true))).isTrue();
    assertThat(holds("InStock <> :v", ":v", AttributeValue.fromBool(false))).isTrue();
    assertThat(holds("Discontinued = :v", ":v", AttributeValue.fromNul(true))).isTrue();
  }

  @Test
  void comparingDifferentTypesIsFalseNotAnError() {
    productTable();
    // {"S":"650"} is not {"N":"650"}: no ordering across types, and equality is false.
    assertThat(holds("Price = :v", ":v", s("650"))).isFalse();
    assertThat(holds("Price < :v", ":v", s("700"))).isFalse();
    assertThat(holds("Price > :v", ":v", s("1"))).isFalse();
    assertThat(holds("Price <= :v", ":v", s("650"))).isFalse();
    assertThat(holds("Price >= :v", ":v", b(1))).isFalse();
    assertThat(holds("Title < :v", ":v", n("1"))).isFalse();
    assertThat(holds("Color = :v", ":v", s("Red"))).isFalse();
    // Values of different types are unequal, so <> holds.
    assertThat(holds("Price <> :v", ":v", s("650"))).isTrue();
    // A missing attribute compares false with every ordering comparator.
    assertThat(holds("Absent < :v", ":v", n("1"))).isFalse();
    assertThat(holds("Absent = :v", ":v", n("1"))).isFalse();
  }

  // ---- BETWEEN and IN ------------------------------------------------------------------------

  @Test
  void betweenIsInclusiveAndTyped() {
    productTable();
    assertThat(holds("Price BETWEEN :lo AND :hi", ":lo", n("500"), ":hi", n("700"))).isTrue();
    assertThat(holds("Price BETWEEN :lo AND :hi", ":lo", n("650"), ":hi", n("650"))).isTrue();
    assertThat(holds("Price between :lo and :hi", ":lo", n("600"), ":hi", n("650"))).isTrue();
    assertThat(holds("Price BETWEEN :lo AND :hi", ":lo", n("651"), ":hi", n("700"))).isFalse();
    assertThat(holds("Title BETWEEN :lo AND :hi", ":lo", s("Bicycle"), ":hi", s("Bicycle 9")))
        .isTrue();
    // A string range says nothing about a number.
    assertThat(holds("Price BETWEEN :lo AND :hi", ":lo", s("0"), ":hi", s("9"))).isFalse();
    assertThat(holds("Absent BETWEEN :lo AND :hi", ":lo", n("0"), ":hi", n("9"))).isFalse();
  }

  @Test
  void inMatchesAnyOfItsOperands() {
    productTable();
    assertThat(holds("ProductCategory IN (:cat1, :cat2)",
        ":cat1", s("Sporting Goods"), ":cat2", s("Gardening Supplies"))).isTrue();
    assertThat(holds("ProductCategory IN (:cat1, :cat2)",
        ":cat1", s("Books"), ":cat2", s("Gardening Supplies"))).isFalse();
    assertThat(holds("Price IN (:a)", ":a", n("650"))).isTrue();
    assertThat(holds("Price IN (:a, :b)", ":a", s("650"), ":b", n("6.5E2"))).isTrue();
    assertThat(holds("Color IN (:a)", ":a", AttributeValue.fromSs(List.of("Black", "Red"))))
        .isTrue();
    assertThat(holds("Absent IN (:a)", ":a", n("650"))).isFalse();

    // Up to 100 operands.
    Object[] values = new Object[200];
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      values[2 * i] = ":v" + i;
      values[2 * i + 1] = n(Integer.toString(551 + i));
      list.append(i == 0 ? "" : ", ").append(":v").append(i);
    }
    assertThat(holds("Price IN (" + list + ")", values)).isTrue();
  }

  // ---- logical operators ---------------------------------------------------------------------

  @Test
  void notBindsTighterThanAndWhichBindsTighterThanOr() {
    productTable();
    AttributeValue yes = n("650");
    AttributeValue no = n("1");
    // a OR b AND c is a OR (b AND c): true here, false if read left to right.
    assertThat(holds("Price = :yes OR Price = :no AND Price = :no", ":yes", yes, ":no", no))
        .isTrue();
    assertThat(holds("(Price = :yes OR Price = :no) AND Price = :no", ":yes", yes, ":no", no))
        .isFalse();
    // a AND b OR c is (a AND b) OR c.
    assertThat(holds("Price = :no AND Price = :no OR Price = :yes", ":yes", yes, ":no", no))
        .isTrue();
    assertThat(holds("Price = :no AND (Price = :no OR Price = :yes)", ":yes", yes, ":no", no))
        .isFalse();
    // NOT a AND b is (NOT a) AND b.
    assertThat(holds("NOT Price = :no AND Price = :yes", ":yes", yes, ":no", no)).isTrue();
    assertThat(holds("NOT Price = :yes AND Price = :no", ":yes", yes, ":no", no)).isFalse();
    assertThat(holds("NOT (Price = :yes AND Price = :no)", ":yes", yes, ":no", no)).isTrue();
    assertThat(holds("NOT (NOT Price = :yes)", ":yes", yes)).isTrue();
    assertThat(holds("not attribute_exists(Absent) and Price = :yes", ":yes", yes)).isTrue();
    // Keywords are case-insensitive.
    assertThat(holds("Price = :no or NOT Price = :no", ":no", no)).isTrue();
  }

  // ---- functions: the developer guide's examples ---------------------------------------------

  @Test
  void attributeExistsAndAttributeNotExists() {
    productTable();
    assertThat(holds("attribute_exists (#Pictures.#SideView)",
        "#Pictures", "Pictures", "#SideView", "SideView")).isTrue();
    assertThat(holds("attribute_exists (Pictures.TopView)")).isFalse();
    assertThat(holds("attribute_not_exists (Manufacturer)")).isTrue();
    assertThat(holds("attribute_not_exists (Price)")).isFalse();
    assertThat(holds("attribute_exists(RelatedItems[2])")).isTrue();
    assertThat(holds("attribute_exists(RelatedItems[3])")).isFalse();
    // A NULL value exists.
    assertThat(holds("attribute_exists(Discontinued)")).isTrue();
  }

  @Test
  void attributeTypeOfEveryType() {
    productTable();
    assertThat(holds("attribute_type (ProductReviews.FiveStar, :v_sub)", ":v_sub", s("L")))
        .isTrue();
    Map<String, String> types = new LinkedHashMap<>();
    types.put("Title", "S");
    types.put("Price", "N");
    types.put("VideoClip", "B");
    types.put("InStock", "BOOL");
    types.put("Discontinued", "NULL");
    types.put("Color", "SS");
    types.put("Sizes", "NS");
    types.put("Codes", "BS");
    types.put("RelatedItems", "L");
    types.put("Pictures", "M");
    for (Map.Entry<String, String> type : types.entrySet()) {
      for (String name : types.values()) {
        assertThat(holds("attribute_type(" + type.getKey() + ", :t)", ":t", s(name)))
            .as("attribute_type(%s, %s)", type.getKey(), name)
            .isEqualTo(name.equals(type.getValue()));
      }
    }
    assertThat(holds("attribute_type(Absent, :t)", ":t", s("S"))).isFalse();
  }

  @Test
  void beginsWith() {
    productTable();
    assertThat(holds("begins_with (Pictures.FrontView, :v_sub)", ":v_sub", s("http://")))
        .isTrue();
    assertThat(holds("begins_with (Pictures.FrontView, :v_sub)", ":v_sub", s("https://")))
        .isFalse();
    assertThat(holds("begins_with(Title, :v)", ":v", s(""))).isTrue();
    assertThat(holds("begins_with(VideoClip, :v)", ":v", b(0x00, 0x10))).isTrue();
    assertThat(holds("begins_with(VideoClip, :v)", ":v", b(0x10))).isFalse();
    // Another type in the item is not an error: the condition is false.
    assertThat(holds("begins_with(Price, :v)", ":v", s("6"))).isFalse();
    assertThat(holds("begins_with(Title, :v)", ":v", b(0x42))).isFalse();
  }

  @Test
  void containsOnStringsSetsAndLists() {
    productTable();
    assertThat(holds("contains (Brand, :v_sub)", ":v_sub", s("Company"))).isTrue();
    assertThat(holds("contains (Brand, :v_sub)", ":v_sub", s("company"))).isFalse();
    assertThat(holds("contains (Color, :v_sub)", ":v_sub", s("Red"))).isTrue();
    assertThat(holds("contains (Color, :v_sub)", ":v_sub", s("Re"))).isFalse();
    assertThat(holds("contains(Sizes, :v)", ":v", n("2.0"))).isTrue();
    assertThat(holds("contains(Sizes, :v)", ":v", s("2"))).isFalse();
    assertThat(holds("contains(Codes, :v)", ":v", b(2))).isTrue();
    assertThat(holds("contains(Tags, :v)", ":v", s("bike"))).isTrue();
    assertThat(holds("contains(Tags, :v)", ":v", n("7"))).isTrue();
    assertThat(holds("contains(Tags, :v)", ":v", s("bik"))).isFalse();
    assertThat(holds("contains(ProductReviews.OneStar, :v)",
        ":v", s("Terrible product! Do not buy this."))).isTrue();
    assertThat(holds("contains(Price, :v)", ":v", n("6"))).isFalse();
    assertThat(holds("contains(Absent, :v)", ":v", s("x"))).isFalse();
  }

  @Test
  void sizeOfEveryType() {
    productTable();
    // The developer guide's examples.
    assertThat(holds("size (Brand) <= :v_sub", ":v_sub", n("20"))).isTrue();
    assertThat(holds("size(VideoClip) > :v_sub", ":v_sub", n("4"))).isTrue();
    assertThat(holds("size (Color) < :v_sub", ":v_sub", n("3"))).isTrue();
    assertThat(holds("size(ProductReviews.OneStar) > :v_sub", ":v_sub", n("0"))).isTrue();
    // Exact sizes: string length, bytes, set members, list elements, map entries.
    assertThat(holds("size(Title) = :v", ":v", n("11"))).isTrue();
    assertThat(holds("size(VideoClip) = :v", ":v", n("5"))).isTrue();
    assertThat(holds("size(Color) = :v", ":v", n("2"))).isTrue();
    assertThat(holds("size(Sizes) = :v", ":v", n("3"))).isTrue();
    assertThat(holds("size(Codes) = :v", ":v", n("2"))).isTrue();
    assertThat(holds("size(RelatedItems) = :v", ":v", n("3"))).isTrue();
    assertThat(holds("size(Pictures) = :v", ":v", n("3"))).isTrue();
    assertThat(holds("size(ProductReviews) = :v", ":v", n("2"))).isTrue();
    // size of another type, or of a missing attribute, makes the comparison false.
    assertThat(holds("size(Price) >= :v", ":v", n("0"))).isFalse();
    assertThat(holds("size(InStock) >= :v", ":v", n("0"))).isFalse();
    assertThat(holds("size(Absent) >= :v", ":v", n("0"))).isFalse();
    // It matches nothing: not even <>, where an absent attribute is unequal to every value.
    assertThat(holds("size(Absent) <> :v", ":v", n("0"))).isFalse();
    assertThat(holds(":v <> size(Price)", ":v", n("0"))).isFalse();
    assertThat(holds("Absent <> :v", ":v", n("0"))).isTrue();
    // A string's size counts UTF-16 code units: "é𝄞" is 1 + 2, not its 6 UTF-8 bytes.
    dynamo.putItem(r -> r.tableName(table).item(item("Id", n("1"), "Note", s("é𝄞"))));
    dynamo.putItem(r -> r.tableName(table).item(item("Id", n("1"), "Note", s("é𝄞")))
        .conditionExpression("size(Note) = :three")
        .expressionAttributeValues(Map.of(":three", n("3"))));
    // size is an operand: it works on either side and in BETWEEN and IN.
    assertThat(holds(":v < size(Title)", ":v", n("10"))).isTrue();
    assertThat(holds("size(Title) BETWEEN :lo AND :hi", ":lo", n("10"), ":hi", n("12")))
        .isTrue();
    assertThat(holds("size(Title) IN (:a, :b)", ":a", n("1"), ":b", n("11"))).isTrue();
  }

  // ---- the developer guide's conditional writes ----------------------------------------------

  @Test
  void preventingAnOverwriteWithAttributeNotExists() {
    String table = productTable();
    ConditionalCheckFailedException failed = catchThrowableOfType(
        ConditionalCheckFailedException.class,
        () -> dynamo.putItem(r -> r.tableName(table)
            .item(item("Id", n("456"), "Price", n("1")))
            .conditionExpression("attribute_not_exists(Id)")));
    assertThat(failed).isNotNull();
    assertThat(failed.awsErrorDetails().errorCode()).isEqualTo("ConditionalCheckFailedException");
    assertThat(failed.awsErrorDetails().errorMessage()).isEqualTo("The conditional request failed");
    assertThat(failed.statusCode()).isEqualTo(400);
    assertThat(getProduct(table).get("Price")).isEqualTo(n("650"));

    dynamo.putItem(r -> r.tableName(table)
        .item(item("Id", n("457"), "Price", n("1")))
        .conditionExpression("attribute_not_exists(Id)"));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("Id", n("457")))).item())
        .containsEntry("Price", n("1"));
  }

  @Test
  void conditionalDeleteWithInAndBetween() {
    String table = productTable();
    Map<String, AttributeValue> values = item(
        ":cat1", s("Sporting Goods"),
        ":cat2", s("Gardening Supplies"),
        ":lo", n("500"),
        ":hi", n("600"));
    String condition = "(ProductCategory IN (:cat1, :cat2)) and (Price between :lo and :hi)";
    assertThat(catchThrowableOfType(ConditionalCheckFailedException.class,
        () -> dynamo.deleteItem(r -> r.tableName(table).key(item("Id", n("456")))
            .conditionExpression(condition).expressionAttributeValues(values)))).isNotNull();
    assertThat(getProduct(table)).isNotEmpty();

    values.put(":hi", n("650"));
    dynamo.deleteItem(r -> r.tableName(table).key(item("Id", n("456")))
        .conditionExpression(condition).expressionAttributeValues(values));
    assertThat(getProduct(table)).isEmpty();
  }

  @Test
  void conditionalUpdateWithAComparison() {
    String table = productTable();
    // "Reduce the price by 75 ... but only if the current price is more than 500."
    Map<String, AttributeValue> values = item(":discount", n("75"), ":limit", n("500"));
    dynamo.updateItem(r -> r.tableName(table).key(item("Id", n("456")))
        .updateExpression("SET Price = Price - :discount")
        .conditionExpression("Price > :limit")
        .expressionAttributeValues(values));
    assertThat(getProduct(table).get("Price")).isEqualTo(n("575"));
    dynamo.updateItem(r -> r.tableName(table).key(item("Id", n("456")))
        .updateExpression("SET Price = Price - :discount")
        .conditionExpression("Price > :limit")
        .expressionAttributeValues(values));
    assertThat(getProduct(table).get("Price")).isEqualTo(n("500"));
    assertThat(catchThrowableOfType(ConditionalCheckFailedException.class,
        () -> dynamo.updateItem(r -> r.tableName(table).key(item("Id", n("456")))
            .updateExpression("SET Price = Price - :discount")
            .conditionExpression("Price > :limit")
            .expressionAttributeValues(values)))).isNotNull();
    assertThat(getProduct(table).get("Price")).isEqualTo(n("500"));
  }

  @Test
  void conditionsOnAAbsentItemSeeNoAttributes() {
    String table = productTable();
    Map<String, AttributeValue> key = item("Id", n("999"));
    // Nothing exists, so attribute_exists fails and attribute_not_exists holds.
    assertThat(catchThrowableOfType(ConditionalCheckFailedException.class,
        () -> dynamo.updateItem(r -> r.tableName(table).key(key)
            .updateExpression("SET Price = :p").conditionExpression("attribute_exists(Id)")
            .expressionAttributeValues(item(":p", n("1")))))).isNotNull();
    assertThat(catchThrowableOfType(ConditionalCheckFailedException.class,
        () -> dynamo.deleteItem(r -> r.tableName(table).key(key)
            .conditionExpression("attribute_exists(Id)")))).isNotNull();
    dynamo.updateItem(r -> r.tableName(table).key(key)
        .updateExpression("SET Price = :p").conditionExpression("attribute_not_exists(Id)")
        .expressionAttributeValues(item(":p", n("1"))));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(key)).item())
        .isEqualTo(item("Id", n("999"), "Price", n("1")));
  }

  // ---- ReturnValuesOnConditionCheckFailure ---------------------------------------------------

  @Test
  void failedConditionReturnsTheOldItemOnlyWhenAsked() {
    String table = productTable();
    Map<String, AttributeValue> key = item("Id", n("456"));
    String condition = "Price < :p";
    Map<String, AttributeValue> values = item(":p", n("100"));

    ConditionalCheckFailedException plain = catchThrowableOfType(
        ConditionalCheckFailedException.class,
        () -> dynamo.deleteItem(r -> r.tableName(table).key(key)
            .conditionExpression(condition).expressionAttributeValues(values)));
    assertThat(plain).isNotNull();
    assertThat(plain.hasItem()).isFalse();

    ConditionalCheckFailedException none = catchThrowableOfType(
        ConditionalCheckFailedException.class,
        () -> dynamo.deleteItem(r -> r.tableName(table).key(key)
            .conditionExpression(condition).expressionAttributeValues(values)
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.NONE)));
    assertThat(none).isNotNull();
    assertThat(none.hasItem()).isFalse();

    List<ConditionalCheckFailedException> withOld = List.of(
        catchThrowableOfType(ConditionalCheckFailedException.class,
            () -> dynamo.deleteItem(r -> r.tableName(table).key(key)
                .conditionExpression(condition).expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))),
        catchThrowableOfType(ConditionalCheckFailedException.class,
            () -> dynamo.putItem(r -> r.tableName(table).item(item("Id", n("456")))
                .conditionExpression(condition).expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))),
        catchThrowableOfType(ConditionalCheckFailedException.class,
            () -> dynamo.updateItem(r -> r.tableName(table).key(key)
                .updateExpression("REMOVE Title")
                .conditionExpression(condition).expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(
                    ReturnValuesOnConditionCheckFailure.ALL_OLD))));
    for (ConditionalCheckFailedException failed : withOld) {
      assertThat(failed).isNotNull();
      assertThat(failed.awsErrorDetails().errorMessage())
          .isEqualTo("The conditional request failed");
      if (!onPeer()) {
        assertThat(failed.item()).isEqualTo(product());
      }
    }
    // Nothing changed.
    assertThat(getProduct(table)).isEqualTo(product());

    // A missing item has no old item to return.
    ConditionalCheckFailedException missing = catchThrowableOfType(
        ConditionalCheckFailedException.class,
        () -> dynamo.deleteItem(r -> r.tableName(table).key(item("Id", n("1")))
            .conditionExpression("attribute_exists(Id)")
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
    assertThat(missing).isNotNull();
    assertThat(missing.hasItem()).isFalse();
  }

  private Map<String, AttributeValue> getProduct(String table) {
    return dynamo.getItem(r -> r.tableName(table).key(item("Id", n("456")))
        .consistentRead(true)).item();
  }

  /**
   * Whether the run is against the peer implementation, which is known to differ from DynamoDB
   * on the assertions so guarded (see the class comment).
   */
  private boolean onPeer() {
    return endpoint.target() == Target.EXTERNAL;
  }
}
