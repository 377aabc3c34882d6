package io.stator.item;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ItemSizeTest {

  @Test
  void scalarsCountNameAndValueBytes() {
    assertThat(ItemSize.of(Map.of("name", AttributeValue.s("Alice")))).isEqualTo(4 + 5);
    assertThat(ItemSize.of(Map.of("é", AttributeValue.s("日本")))).isEqualTo(2 + 6);
    assertThat(ItemSize.of(Map.of("b", AttributeValue.b(new byte[10])))).isEqualTo(1 + 10);
    assertThat(ItemSize.of(Map.of("t", AttributeValue.bool(true)))).isEqualTo(2);
    assertThat(ItemSize.of(Map.of("z", AttributeValue.NULL))).isEqualTo(2);
  }

  @Test
  void numbersTakeAboutOneBytePerTwoDigitsPlusOne() {
    assertThat(ItemSize.number("0")).isEqualTo(1);
    assertThat(ItemSize.number("1")).isEqualTo(2);
    assertThat(ItemSize.number("10")).isEqualTo(2);
    assertThat(ItemSize.number("12")).isEqualTo(2);
    assertThat(ItemSize.number("123")).isEqualTo(3);
    assertThat(ItemSize.number("1.2")).isEqualTo(3); // 1.2 straddles two base-100 pairs
    assertThat(ItemSize.number("-1")).isEqualTo(3);
    assertThat(ItemSize.number("12345678901234567890123456789012345678")).isEqualTo(20);
  }

  @Test
  void documentsAndSets() {
    // M: 3 + 1 per entry + entries (name + value)
    Map<String, AttributeValue> inner = new LinkedHashMap<>();
    inner.put("a", AttributeValue.s("xy"));
    inner.put("bb", AttributeValue.bool(false));
    assertThat(ItemSize.of(AttributeValue.m(inner))).isEqualTo(3 + 2 + (1 + 2) + (2 + 1));
    // L: 3 + 1 per element + elements
    assertThat(ItemSize.of(AttributeValue.l(List.of(AttributeValue.s("abc"), AttributeValue.NULL))))
        .isEqualTo(3 + 2 + 3 + 1);
    assertThat(ItemSize.of(AttributeValue.ss(List.of("ab", "cde")))).isEqualTo(5);
    assertThat(ItemSize.of(AttributeValue.ns(List.of("1", "123")))).isEqualTo(2 + 3);
    assertThat(ItemSize.of(AttributeValue.bs(Set.of(Bytes.of(new byte[3]))))).isEqualTo(3);
  }

  @Property
  void stringSizeIsUtf8Length(@ForAll String name, @ForAll String value) {
    assertThat(ItemSize.of(Map.of(name, AttributeValue.s(value))))
        .isEqualTo(name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
            + value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
  }

  /** The size read from the text is the one BigDecimal's digits and scale give. */
  @Property(tries = 2000)
  void numberSizeFromTheTextMatchesBigDecimal(
      @ForAll @net.jqwik.api.constraints.BigRange(min = "-1E40", max = "1E40")
          java.math.BigDecimal value,
      @ForAll @net.jqwik.api.constraints.IntRange(min = -130, max = 126) int shift,
      @ForAll boolean plain) {
    java.math.BigDecimal shifted = value.scaleByPowerOfTen(shift);
    String text = plain ? shifted.toPlainString() : shifted.toString();
    assertThat(ItemSize.number(text)).as(text).isEqualTo(throughBigDecimal(text));
  }

  @Test
  void numberSizeOfUnusualTexts() {
    for (String text : List.of("0.000", "-0", "+5", "1E+5", "1e-5", "00012.3400", ".5", "5.",
        "-000.000120E3", "1E2147483647", "9.9e-130")) {
      assertThat(ItemSize.number(text)).as(text).isEqualTo(throughBigDecimal(text));
    }
  }

  /** Sizing a stored number's bytes in place gives what sizing its String gives. */
  @Property(tries = 2000)
  void numberSizeFromBytesMatchesTheString(
      @ForAll @net.jqwik.api.constraints.BigRange(min = "-1E40", max = "1E40")
          java.math.BigDecimal value,
      @ForAll @net.jqwik.api.constraints.IntRange(min = -130, max = 126) int shift,
      @ForAll boolean plain,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 3) int padding) {
    java.math.BigDecimal shifted = value.scaleByPowerOfTen(shift);
    String text = plain ? shifted.toPlainString() : shifted.toString();
    byte[] inside = ("#".repeat(padding) + text + "#".repeat(padding))
        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    assertThat(ItemSize.number(inside, padding, text.length())).as(text)
        .isEqualTo(ItemSize.number(text));
  }

  @Test
  void numberSizeFromBytesOfUnusualTexts() {
    for (String text : List.of("0.000", "-0", "+5", "1E+5", "1e-5", "00012.3400", ".5", "5.",
        "-000.000120E3", "1E2147483647", "9.9e-130", "12345678901234567890123456789012345678")) {
      byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      assertThat(ItemSize.number(bytes, 0, bytes.length)).as(text)
          .isEqualTo(ItemSize.number(text));
    }
    // Not a plain form: the String way, with its error.
    byte[] bad = "1e".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ItemSize.number(bad, 0, 2))
        .isInstanceOf(NumberFormatException.class);
  }

  private static long throughBigDecimal(String text) {
    java.math.BigDecimal value = new java.math.BigDecimal(text);
    if (value.signum() == 0) {
      return 1;
    }
    java.math.BigDecimal stripped = value.stripTrailingZeros();
    int digits = stripped.precision();
    long exponent = (long) digits - stripped.scale() - 1;
    int pairs = (digits + 1) / 2 + (digits % 2 == 0 && Math.floorMod(exponent, 2) == 0 ? 1 : 0);
    return 1 + pairs + (value.signum() < 0 ? 1 : 0);
  }
}
