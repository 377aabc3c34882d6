package io.stator.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** A string over UTF-8 bytes ({@link AttributeValue.S#ofUtf8}) against one made from a String. */
class StringValueTest {

  /** Two strings that are often equal, or differ only by their last or first character. */
  @Provide
  Arbitrary<String[]> pairs() {
    Arbitrary<String> texts =
        Arbitraries.oneOf(
            Arbitraries.strings().ascii().ofMaxLength(60),
            Arbitraries.strings().ofMaxLength(60),
            Arbitraries.strings().withChars("aé中").ofMaxLength(6));
    return texts.flatMap(a -> Arbitraries.oneOf(
        Arbitraries.just(a),
        Arbitraries.just(a + "x"),
        Arbitraries.just(a.isEmpty() ? "" : a.substring(0, a.length() - 1)),
        Arbitraries.just(a.isEmpty() ? "é" : "é" + a.substring(1)),
        Arbitraries.just(a.isEmpty() ? "a" : a.substring(0, a.length() - 1) + "é"),
        texts).map(b -> new String[] {a, b}));
  }

  @Property(tries = 1000)
  void equalityIsTheStringsWhicheverWayEachWasMade(@ForAll("pairs") String[] pair) {
    String a = pair[0];
    String b = pair[1];
    boolean same = a.equals(b);
    AttributeValue.S fromBytes = utf8(a);
    assertThat(fromBytes.equals(new AttributeValue.S(b))).isEqualTo(same);
    assertThat(new AttributeValue.S(b).equals(fromBytes)).isEqualTo(same);
    assertThat(fromBytes.equals(utf8(b))).isEqualTo(same);
    if (same) {
      assertThat(fromBytes.hashCode()).isEqualTo(new AttributeValue.S(b).hashCode());
    }
    assertThat(utf8(a).value()).isEqualTo(a);
  }

  @Test
  void theBytesAreKeptAndTheStringIsMadeOnce() {
    byte[] bytes = "--a string in the middle--".getBytes(StandardCharsets.UTF_8);
    AttributeValue.S s = AttributeValue.S.ofUtf8(bytes, 2, bytes.length - 4);
    assertThat(s.hasUtf8()).isTrue();
    assertThat(s.unsafeUtf8Array()).isSameAs(bytes);
    assertThat(s.utf8Offset()).isEqualTo(2);
    assertThat(s.utf8Length()).isEqualTo(bytes.length - 4);
    assertThat(s.value()).isEqualTo("a string in the middle").isSameAs(s.value());
    assertThat(s).hasToString("S[value=a string in the middle]");
    assertThat(new AttributeValue.S("x").hasUtf8()).isFalse();
  }

  private static AttributeValue.S utf8(String text) {
    byte[] bytes = ("<" + text + ">").getBytes(StandardCharsets.UTF_8);
    return AttributeValue.S.ofUtf8(bytes, 1, bytes.length - 2);
  }
}
