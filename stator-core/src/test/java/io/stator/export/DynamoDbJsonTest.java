package io.stator.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** DYNAMODB_JSON lines: every type written and read back, and no line read into anything else. */
class DynamoDbJsonTest {
  static Map<String, AttributeValue> everyType() {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("s", new AttributeValue.S("a \"quoted\" \\ line\nwith \u0001 and \u00e9\u4e2d"));
    item.put("n", AttributeValue.n("-12.5"));
    item.put("b", new AttributeValue.B(Bytes.of(new byte[] {0, 1, -1})));
    item.put("t", AttributeValue.bool(true));
    item.put("z", AttributeValue.NULL);
    item.put("m", new AttributeValue.M(Map.of("in", AttributeValue.n("1"))));
    item.put("l", new AttributeValue.L(List.of(new AttributeValue.S(""), AttributeValue.NULL)));
    item.put("ss", AttributeValue.ss(List.of("x", "y")));
    item.put("ns", AttributeValue.ns(List.of("1", "2.5")));
    item.put("bs", AttributeValue.bs(List.of(Bytes.of(new byte[] {7}))));
    return item;
  }

  @Test
  void aLineHoldsItsItemExactly() {
    String line = DynamoDbJson.line(everyType());
    assertThat(line).startsWith("{\"Item\":{\"s\":{\"S\":").doesNotContain("\n");
    assertThat(DynamoDbJson.item(line)).isEqualTo(everyType());
  }

  @Test
  void whatIsNoItemLineIsAValidationException() {
    for (String bad : List.of("", "{}", "[]", "{\"Item\":1}", "{\"Item\":{}} x",
        "{\"Item\":{\"a\":{\"S\":\"x\",\"N\":\"1\"}}}", "{\"Item\":{\"a\":{\"Q\":\"x\"}}}",
        "{\"Item\":{\"a\":{\"N\":\"one\"}}}", "{\"Item\":{\"a\":{\"B\":\"!!\"}}}",
        "{\"Item\":{\"a\":{\"SS\":[]}}}", "{\"Item\":{\"a\":{\"NULL\":false}}}",
        "{\"Item\":{\"a\":{\"S\":\"x\"},\"a\":{\"S\":\"y\"}}}", "{\"Item\":{\"a\":{\"S\":\"\\q\"}}}",
        "[".repeat(10_000), "{\"Item\":" + "{\"a\":{\"M\":".repeat(50) + "{}"
            + "}}".repeat(50) + "}")) {
      assertThat(catchThrowable(() -> DynamoDbJson.item(bad))).as(bad)
          .isInstanceOfSatisfying(DynamoDbException.class,
              e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException));
    }
  }

  /** A line cut or changed anywhere is an item or a ValidationException, never another error. */
  @Property(tries = 500)
  void aDamagedLineIsAnItemOrAValidationException(@ForAll @IntRange(min = 0, max = 400) int at,
      @ForAll char replacement, @ForAll boolean cut) {
    String line = DynamoDbJson.line(everyType());
    int i = at % line.length();
    String damaged = cut ? line.substring(0, i)
        : line.substring(0, i) + replacement + line.substring(i + 1);
    try {
      assertThat(DynamoDbJson.item(damaged)).isNotNull();
    } catch (DynamoDbException e) {
      assertThat(e.type()).isEqualTo(ErrorType.ValidationException);
    }
  }
}
