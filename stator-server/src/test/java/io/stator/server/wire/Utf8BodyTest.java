package io.stator.server.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link Utf8Body} against the JDK's strict UTF-8 decoder: it passes a body through unchanged
 * exactly when the decoder (with {@link CodingErrorAction#REPORT}) accepts it and it holds no
 * NUL and starts with no byte order mark, however the body is cut into reads.
 */
class Utf8BodyTest {

  /** Bodies mostly of valid UTF-8 of every length, with a bad byte or sequence now and then. */
  @Provide
  Arbitrary<byte[]> bodies() {
    Arbitrary<byte[]> characters = Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(1, 0x7F)),
            Tuple.of(2, Arbitraries.integers().between(0x80, 0xD7FF)),
            Tuple.of(1, Arbitraries.integers().between(0xE000, 0xFFFF)),
            Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)))
        .map(cp -> Character.toString(cp).getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> anyByte = Arbitraries.integers().between(0, 0xFF)
        .map(b -> new byte[] {(byte) (int) b});
    Arbitrary<byte[]> bad = Arbitraries.of(
        bytes(0xF4, 0x90, 0x80, 0x80), bytes(0xC0, 0x80), bytes(0xC1, 0xBF),
        bytes(0xE0, 0x9F, 0xBF), bytes(0xF0, 0x8F, 0xBF, 0xBF), bytes(0xED, 0xA0, 0x80),
        bytes(0xED, 0xBF, 0xBF), bytes(0xE2, 0x82), bytes(0xF0, 0x9F, 0x98), bytes(0x80),
        bytes(0xF8, 0x88, 0x80, 0x80, 0x80), bytes(0xEF, 0xBB, 0xBF), bytes(0));
    return Arbitraries.frequencyOf(
            Tuple.of(20, characters), Tuple.of(1, anyByte), Tuple.of(1, bad))
        .list().ofMaxSize(40)
        .map(parts -> {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          parts.forEach(out::writeBytes);
          return out.toByteArray();
        });
  }

  @Property(tries = 1000)
  void acceptsWhatTheStrictDecoderAcceptsAndNoNulNorByteOrderMark(
      @ForAll("bodies") byte[] body, @ForAll @IntRange(min = 1, max = 7) int readSize)
      throws IOException {
    boolean valid = strictlyDecodes(body)
        && !contains(body, (byte) 0)
        && !(body.length >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB
            && (body[2] & 0xFF) == 0xBF);
    if (valid) {
      assertThat(readAll(body, readSize)).isEqualTo(body);
    } else {
      assertThatThrownBy(() -> readAll(body, readSize))
          .isInstanceOfSatisfying(DynamoDbException.class,
              e -> assertThat(e.type()).isEqualTo(ErrorType.SerializationException));
    }
  }

  @Test
  void singleByteReadsAreCheckedToo() throws IOException {
    byte[] good = "{\"a\":\"é中😀\"}".getBytes(StandardCharsets.UTF_8);
    InputStream in = new Utf8Body(new ByteArrayInputStream(good));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int b = in.read(); b >= 0; b = in.read()) {
      out.write(b);
    }
    assertThat(out.toByteArray()).isEqualTo(good);
    InputStream bad = new Utf8Body(new ByteArrayInputStream(bytes('"', 0xC3)));
    assertThat(bad.read()).isEqualTo('"');
    assertThat(bad.read()).isEqualTo(0xC3);
    assertThatThrownBy(bad::read).hasMessageContaining("cut short by the end of the body");
  }

  @Test
  void theMessagesSayWhatIsWrongAndWhere() {
    for (var c : List.of(
        Tuple.of(bytes('a', 0xF4, 0x90, 0x80, 0x80), "the bytes at offset 1 encode no character"),
        Tuple.of(bytes('a', 'b', 0xC0, 0x80), "byte 0xC0 at offset 2 starts no character"),
        Tuple.of(bytes(0xE0, 0x80, 0x80), "the character at offset 0 is an overlong encoding"),
        Tuple.of(bytes(0xED, 0xB0, 0x80), "encode the surrogate U+DC00, which is no character"),
        Tuple.of(bytes(0xE2, 0x82, 'x'), "offset 0 is cut short by byte 0x78"),
        Tuple.of(bytes('{', 0), "NUL byte at offset 1"),
        Tuple.of(bytes(0xFE, 0xFF, 0, '{'), "a body in UTF-16 or UTF-32 is not accepted"),
        Tuple.of(bytes(0xEF, 0xBB, 0xBF, '{', '}'), "starts with a byte order mark"))) {
      assertThatThrownBy(() -> readAll(c.get1(), 4096)).hasMessageContaining(c.get2());
    }
  }

  private static byte[] readAll(byte[] body, int readSize) throws IOException {
    InputStream in = new Utf8Body(new ByteArrayInputStream(body));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[readSize + 2];
    for (int n = in.read(buffer, 1, readSize); n >= 0; n = in.read(buffer, 1, readSize)) {
      out.write(buffer, 1, n);
    }
    return out.toByteArray();
  }

  private static boolean strictlyDecodes(byte[] body) {
    try {
      StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  private static boolean contains(byte[] body, byte b) {
    for (byte x : body) {
      if (x == b) {
        return true;
      }
    }
    return false;
  }

  private static byte[] bytes(int... unsigned) {
    byte[] bytes = new byte[unsigned.length];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) unsigned[i];
    }
    return bytes;
  }
}
