package io.stator.key;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.value.AttributeValue;
import io.stator.value.Numbers;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class KeyCodecTest {

  @Provide
  Arbitrary<BigDecimal> numbers() {
    Arbitrary<BigInteger> unscaled =
        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(38)
            .map(BigInteger::new);
    Arbitrary<Integer> exponent = Arbitraries.integers().between(-130, 125);
    Arbitrary<Boolean> negative = Arbitraries.of(true, false);
    Arbitrary<BigDecimal> random =
        Combinators.combine(unscaled, exponent, negative)
            .as((u, e, neg) -> {
              BigDecimal d = new BigDecimal(neg ? u.negate() : u);
              BigDecimal stripped = d.stripTrailingZeros();
              // place the leading digit at 10^e, within DynamoDB's range
              int shift = e - (stripped.precision() - stripped.scale() - 1);
              return stripped.scaleByPowerOfTen(shift);
            });
    Arbitrary<BigDecimal> small =
        Combinators.combine(
                Arbitraries.integers().between(-1000, 1000), Arbitraries.integers().between(0, 3))
            .as((i, scale) -> BigDecimal.valueOf(i, scale));
    return Arbitraries.oneOf(random, small,
        Arbitraries.of(BigDecimal.ZERO, new BigDecimal("1E-130"),
            new BigDecimal("9.9999999999999999999999999999999999999E+125"),
            new BigDecimal("-9.9999999999999999999999999999999999999E+125"),
            new BigDecimal("-1E-130")));
  }

  private static BigDecimal valid(BigDecimal d) {
    return Numbers.check(d);
  }

  /** The encoding read from the text is the one BigDecimal gives, in every written form. */
  @Property(tries = 2000)
  void numberFromTextIsNumberFromBigDecimal(
      @ForAll @net.jqwik.api.constraints.BigRange(min = "-1E38", max = "1E38") BigDecimal value,
      @ForAll @net.jqwik.api.constraints.IntRange(min = -120, max = 100) int shift,
      @ForAll boolean plain) {
    BigDecimal shifted = value.scaleByPowerOfTen(shift);
    String text = plain ? shifted.toPlainString() : shifted.toString();
    byte[] expected;
    try {
      expected = KeyCodec.number(new BigDecimal(text));
    } catch (IllegalArgumentException outOfRange) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeyCodec.number(text))
          .hasMessage(outOfRange.getMessage());
      return;
    }
    assertThat(KeyCodec.number(text)).as(text).isEqualTo(expected);
  }

  @Test
  void numberFromUnusualTexts() {
    for (String text : java.util.List.of("0", "-0", "0.000", "+5", "1E+5", "1e-5", "00012.3400",
        ".5", "5.", "-000.000120E3", "1E-130", "9.9999E125", "100", "-100.5")) {
      assertThat(KeyCodec.number(text)).as(text).isEqualTo(KeyCodec.number(new BigDecimal(text)));
    }
    for (String text : java.util.List.of("1E-131", "1E126", "1E2147483647")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeyCodec.number(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("number out of DynamoDB's range");
    }
  }

  @Property(tries = 2000)
  void numberOrderIsNumericOrder(
      @ForAll("numbers") BigDecimal a, @ForAll("numbers") BigDecimal b) {
    BigDecimal x = valid(a);
    BigDecimal y = valid(b);
    int expected = Integer.signum(x.compareTo(y));
    int actual = Integer.signum(Arrays.compareUnsigned(KeyCodec.number(x), KeyCodec.number(y)));
    assertThat(actual).as("%s vs %s", x, y).isEqualTo(expected);
  }

  @Property(tries = 2000)
  void numberRoundTrip(@ForAll("numbers") BigDecimal a) {
    BigDecimal x = valid(a);
    AttributeValue n = new AttributeValue.N(Numbers.toText(x));
    assertThat(KeyCodec.decodeSort(KeyCodec.sort(n), "N")).isEqualTo(n);
    assertThat(KeyCodec.decodePartition(KeyCodec.partition(n), "N")).isEqualTo(n);
  }

  @Property
  void stringOrderIsUtf8ByteOrderAndRoundTrips(@ForAll String a, @ForAll String b) {
    AttributeValue sa = new AttributeValue.S(a);
    AttributeValue sb = new AttributeValue.S(b);
    int expected =
        Integer.signum(Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    assertThat(Integer.signum(Arrays.compareUnsigned(KeyCodec.sort(sa), KeyCodec.sort(sb))))
        .isEqualTo(expected);
    // the escaped value after the hash keeps the order too (for equal hashes)
    byte[] pa = KeyCodec.partition(sa);
    byte[] pb = KeyCodec.partition(sb);
    assertThat(Integer.signum(Arrays.compareUnsigned(
            pa, KeyCodec.HASH_LENGTH, pa.length, pb, KeyCodec.HASH_LENGTH, pb.length)))
        .isEqualTo(expected);
    if (a.equals(new String(a.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))) {
      assertThat(KeyCodec.decodePartition(pa, "S")).isEqualTo(sa);
      assertThat(KeyCodec.decodeSort(KeyCodec.sort(sa), "S")).isEqualTo(sa);
    }
  }

  /** The stored layout of a partition value: zero bytes escaped as 00 FF, then 00 00. */
  @Test
  void partitionValueBytesAreEscapedThenTerminated() {
    byte[] p = KeyCodec.partition(AttributeValue.b(new byte[] {0x61, 0, 0x62, 0}));
    assertThat(Arrays.copyOfRange(p, KeyCodec.HASH_LENGTH, p.length))
        .containsExactly(0x61, 0, 0xFF, 0x62, 0, 0xFF, 0, 0);
    byte[] empty = KeyCodec.partition(AttributeValue.s("x"));
    assertThat(Arrays.copyOfRange(empty, KeyCodec.HASH_LENGTH, empty.length))
        .containsExactly(0x78, 0, 0);
  }

  @Property
  void binaryOrderIsUnsignedAndPartitionIsPrefixFree(@ForAll byte[] a, @ForAll byte[] b) {
    AttributeValue ba = AttributeValue.b(a);
    AttributeValue bb = AttributeValue.b(b);
    int expected = Integer.signum(Arrays.compareUnsigned(a, b));
    assertThat(Integer.signum(Arrays.compareUnsigned(KeyCodec.sort(ba), KeyCodec.sort(bb))))
        .isEqualTo(expected);
    byte[] pa = KeyCodec.partition(ba);
    byte[] pb = KeyCodec.partition(bb);
    assertThat(KeyCodec.decodePartition(pa, "B")).isEqualTo(ba);
    if (!Arrays.equals(a, b)) {
      byte[] va = Arrays.copyOfRange(pa, KeyCodec.HASH_LENGTH, pa.length);
      byte[] vb = Arrays.copyOfRange(pb, KeyCodec.HASH_LENGTH, pb.length);
      assertThat(startsWith(va, vb) || startsWith(vb, va)).isFalse();
    }
  }

  @Test
  void examplesOfDynamoDbOrder() {
    assertThat(less(s("ORDER#10"), s("ORDER#2"))).isTrue();
    assertThat(less(n("-10"), n("-2"))).isTrue();
    assertThat(less(n("-2"), n("-1.5"))).isTrue();
    assertThat(less(n("-0.001"), n("0"))).isTrue();
    assertThat(less(n("0"), n("0.001"))).isTrue();
    assertThat(less(n("2"), n("10"))).isTrue();
    assertThat(less(n("1.5"), n("1.55"))).isTrue();
    assertThat(less(n("-1.55"), n("-1.5"))).isTrue();
    assertThat(less(AttributeValue.b(new byte[] {0x7F}), AttributeValue.b(new byte[] {(byte) 0x80})))
        .isTrue();
    assertThat(KeyCodec.sort(n("1.50"))).isEqualTo(KeyCodec.sort(n("15E-1")));
  }

  private static boolean startsWith(byte[] a, byte[] prefix) {
    return a.length >= prefix.length
        && Arrays.equals(a, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static boolean less(AttributeValue a, AttributeValue b) {
    return Arrays.compareUnsigned(KeyCodec.sort(a), KeyCodec.sort(b)) < 0;
  }

  private static AttributeValue s(String s) {
    return new AttributeValue.S(s);
  }

  private static AttributeValue n(String s) {
    return AttributeValue.n(s);
  }
}
