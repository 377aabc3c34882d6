package io.stator.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.storage.StorageException;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ItemCodecTest {

  @Provide
  Arbitrary<Map<String, AttributeValue>> items() {
    return Arbitraries.maps(Arbitraries.strings().ofMaxLength(8), value(3)).ofMaxSize(6);
  }

  private Arbitrary<AttributeValue> value(int depth) {
    Arbitrary<String> numbers =
        Arbitraries.bigDecimals().between(new java.math.BigDecimal("-1E20"),
                new java.math.BigDecimal("1E20")).ofScale(4)
            .map(d -> AttributeValue.n(d.toPlainString()).value());
    Arbitrary<Bytes> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(10).map(Bytes::of);
    Arbitrary<AttributeValue> scalar =
        Arbitraries.oneOf(
            Arbitraries.strings().map(AttributeValue::s),
            numbers.map(AttributeValue.N::new),
            bytes.map(AttributeValue.B::new),
            Arbitraries.of(true, false).map(AttributeValue::bool),
            Arbitraries.just(AttributeValue.NULL),
            Arbitraries.strings().set().ofMinSize(1).ofMaxSize(4).map(AttributeValue.SS::new),
            numbers.set().ofMinSize(1).ofMaxSize(4).map(AttributeValue.NS::new),
            bytes.set().ofMinSize(1).ofMaxSize(4).map(AttributeValue.BS::new));
    if (depth == 0) {
      return scalar;
    }
    return Arbitraries.oneOf(
        scalar,
        Arbitraries.lazy(() -> value(depth - 1)).list().ofMaxSize(4).map(AttributeValue.L::new),
        Arbitraries.maps(Arbitraries.strings().ofMaxLength(6), Arbitraries.lazy(() -> value(depth - 1)))
            .ofMaxSize(4)
            .map(AttributeValue.M::new));
  }

  @Property(tries = 500)
  void sizeOfTheBytesIsTheItemsSize(@ForAll("items") Map<String, AttributeValue> item) {
    assertThat(ItemCodec.size(ItemCodec.encode(item))).isEqualTo(ItemSize.of(item));
  }

  @Property(tries = 500)
  void roundTrip(@ForAll("items") Map<String, AttributeValue> item) {
    byte[] encoded = ItemCodec.encode(item);
    assertThat(encoded[0]).isEqualTo((byte) ItemCodec.VERSION);
    Map<String, AttributeValue> decoded = ItemCodec.decode(encoded);
    assertThat(decoded).isEqualTo(item);
    assertThat(List.copyOf(decoded.keySet())).isEqualTo(List.copyOf(item.keySet()));
  }

  @Property(tries = 500)
  void aDecodedItemEncodesToTheSameBytes(@ForAll("items") Map<String, AttributeValue> item) {
    byte[] encoded = ItemCodec.encode(item);
    Map<String, AttributeValue> decoded = ItemCodec.decode(encoded);
    assertThat(ItemCodec.encode(decoded)).isEqualTo(encoded);
    assertThat(ItemSize.of(decoded)).isEqualTo(ItemSize.of(item));
  }

  @Test
  void longStringsDecodeOverTheItemsBytesAndShortOnesToStrings() {
    String longText = "é".repeat(ItemCodec.LAZY_STRING_BYTES / 2);
    String shortText = "x".repeat(ItemCodec.LAZY_STRING_BYTES - 1);
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("long", AttributeValue.s(longText));
    item.put("short", AttributeValue.s(shortText));
    item.put("nested", AttributeValue.l(List.of(AttributeValue.s(longText))));
    byte[] encoded = ItemCodec.encode(item);
    Map<String, AttributeValue> decoded = ItemCodec.decode(encoded);

    AttributeValue.S kept = (AttributeValue.S) decoded.get("long");
    assertThat(kept.hasUtf8()).isTrue();
    assertThat(kept.unsafeUtf8Array()).isSameAs(encoded);
    assertThat(kept.utf8Length()).isEqualTo(ItemCodec.LAZY_STRING_BYTES);
    assertThat(kept.value()).isEqualTo(longText);
    assertThat(((AttributeValue.S) decoded.get("short")).hasUtf8()).isFalse();
    AttributeValue.S nested = (AttributeValue.S) ((AttributeValue.L) decoded.get("nested"))
        .value().get(0);
    assertThat(nested.hasUtf8()).isTrue();
    assertThat(nested).isEqualTo(AttributeValue.s(longText));
  }

  @Property
  void anItemStoredWithItsStreamNumberDecodesAndSizesAsWithout(
      @ForAll("items") Map<String, AttributeValue> item, @ForAll long sequenceNumber) {
    byte[] plain = ItemCodec.encode(item);
    assertThat(ItemCodec.streamNumber(plain)).isEqualTo(-1);
    byte[] stored = ItemCodec.withStreamNumber(plain, Math.abs(sequenceNumber >> 1));
    assertThat(ItemCodec.streamNumber(stored)).isEqualTo(Math.abs(sequenceNumber >> 1));
    assertThat(ItemCodec.decode(stored)).isEqualTo(item);
    assertThat(ItemCodec.size(stored)).isEqualTo(ItemCodec.size(plain));
    // stored again with the next change's number: still one number, the new one
    byte[] again = ItemCodec.withStreamNumber(stored, 42);
    assertThat(ItemCodec.streamNumber(again)).isEqualTo(42);
    assertThat(again).hasSize(stored.length);
    assertThat(ItemCodec.decode(again)).isEqualTo(item);
  }

  @Test
  void refusesUnknownVersions() {
    byte[] encoded = ItemCodec.encode(Map.of("a", AttributeValue.s("x")));
    encoded[0] = 9;
    assertThatThrownBy(() -> ItemCodec.decode(encoded))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("version 9");
    assertThatThrownBy(() -> ItemCodec.decode(new byte[0])).isInstanceOf(StorageException.class);
  }

  @Test
  void refusesTruncatedItems() {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("name", AttributeValue.s("a fairly long string"));
    item.put("set", AttributeValue.ss(Set.of("x", "y")));
    byte[] encoded = ItemCodec.encode(item);
    byte[] truncated = java.util.Arrays.copyOf(encoded, encoded.length - 3);
    assertThatThrownBy(() -> ItemCodec.decode(truncated)).isInstanceOf(StorageException.class);
  }

  @Test
  void anEncodingThatFailsHalfWayLeavesNothingInTheNext() {
    Map<String, AttributeValue> broken = new LinkedHashMap<>();
    broken.put("first", AttributeValue.s("written before the failure"));
    broken.put("second", null);
    assertThatThrownBy(() -> ItemCodec.encode(broken))
        .isInstanceOf(IllegalArgumentException.class);

    Map<String, AttributeValue> item = Map.of("a", AttributeValue.s("x"));
    assertThat(ItemCodec.decode(ItemCodec.encode(item))).isEqualTo(item);
  }

  @Test
  void itemsLargerThanTheKeptBufferEncodeAndSoDoSmallOnesAfterThem() {
    Map<String, AttributeValue> large = Map.of("big", AttributeValue.s("x".repeat(300 * 1024)));
    Map<String, AttributeValue> small = Map.of("a", AttributeValue.n("1"));
    byte[] largeBytes = ItemCodec.encode(large);
    byte[] smallBytes = ItemCodec.encode(small);
    assertThat(ItemCodec.decode(largeBytes)).isEqualTo(large);
    assertThat(ItemCodec.decode(smallBytes)).isEqualTo(small);
    assertThat(smallBytes).hasSizeLessThan(16);
  }
}
