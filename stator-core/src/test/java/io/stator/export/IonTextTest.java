package io.stator.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ion text lines: what the writer writes the reader reads back, value for value. */
class IonTextTest {
  @Test
  void everyTypeReadsBackAsWritten() {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", new AttributeValue.S("quote \" back \\ tab\t nl\n \u0001 é 中 😀"));
    item.put("it's", AttributeValue.n("12"));
    item.put("big", AttributeValue.n("1.5E+40"));
    item.put("small", AttributeValue.n("-2.5E-7"));
    item.put("b", new AttributeValue.B(Bytes.of(new byte[] {0, -1, 7})));
    item.put("ok", AttributeValue.bool(true));
    item.put("none", AttributeValue.NULL);
    item.put("l", new AttributeValue.L(List.of(AttributeValue.n("0.5"),
        new AttributeValue.M(Map.of("deep", new AttributeValue.S("x"))))));
    item.put("ss", AttributeValue.ss(List.of("a", "b")));
    item.put("ns", AttributeValue.ns(List.of("1", "2.25")));
    item.put("bs", AttributeValue.bs(List.of(Bytes.of(new byte[] {1}))));
    String line = IonText.line(item);
    assertThat(line).startsWith("{Item:{'pk':\"quote \\\" back").contains("'small':-0.00000025,",
        "'it\\'s':12.", "$dynamodb_SS::[\"a\",\"b\"]", "{{AP8H}}");
    assertThat(IonText.item(line)).isEqualTo(item);
    assertThat(IonText.item(IonText.VERSION_MARKER + " " + line)).isEqualTo(item);
    assertThat(IonText.decimal("1.5E+40")).isEqualTo("1.5d+40");
    assertThat(IonText.decimal("7")).isEqualTo("7.");
  }

  @Test
  void whatIsNoItemLineIsRefusedSayingWhere() {
    for (String bad : List.of("{Item:{a:1.5e3}}", "{Item:{a:\"x}}", "{Other:{}}",
        "{Item:{a:$dynamodb_SS::[1.]}}", "{Item:{a:1.}} trailing", "{Item:{a:{{!!}}}}")) {
      assertThatThrownBy(() -> IonText.item(bad)).as(bad)
          .isInstanceOf(DynamoDbException.class);
    }
  }
}
