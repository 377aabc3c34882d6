package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.Stator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * No two distinct key strings address one item, through the wire (issue 29). Keys are generated
 * as JSON string contents, piece by piece: characters of every UTF-8 length (astral ones among
 * them), written raw, as <code>&#92;u</code> escapes of their UTF-16 units (a surrogate pair for
 * an astral one) or as short escapes; escaped lone surrogates, which may happen to pair with their
 * neighbour; and byte sequences that are no UTF-8. Two keys are put on the real server, the
 * second often the first re-spelled, or with one piece swapped for a look-alike ({@code ?},
 * U+FFFD, NUL, a lone surrogate, bad bytes).
 *
 * <p>The reference: a key is accepted exactly when its bytes are UTF-8 and the string they and
 * the escapes make is valid Unicode ({@link java.nio.charset.CharsetEncoder#canEncode}); an
 * accepted key reads back as that very string; and after both puts each accepted key reads its
 * own item, unless the two strings are equal. jqwik prints the seed of a failing run.
 */
class KeyAliasingTest {
  private static final String AUTH =
      "AWS4-HMAC-SHA256 Credential=key/20240101/us-east-1/dynamodb/aws4_request, "
          + "SignedHeaders=host;x-amz-date, Signature=abc";
  private static final String TABLE = "aliasing";
  private static final JsonFactory JSON = new JsonFactory();
  private static final AtomicInteger TRIES = new AtomicInteger();

  private static StatorServer server;
  private static HttpClient client;

  @BeforeContainer
  static void start() throws Exception {
    server = StatorServer.start("127.0.0.1", 0, Stator.inMemory());
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    Answer created = post("CreateTable", ascii("{\"TableName\":\"" + TABLE + "\","
        + "\"BillingMode\":\"PAY_PER_REQUEST\","
        + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],"
        + "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}"));
    assertThat(created.status()).as(created.body()).isEqualTo(200);
  }

  @AfterContainer
  static void stop() {
    server.close();
  }

  // ---- the property -------------------------------------------------------------------------

  @Property(tries = 600)
  void acceptedKeysRoundTripAndNeverAliasEachOther(@ForAll("pairs") Key[] pair)
      throws Exception {
    // A prefix of the try's own: one try's items cannot answer another's reads.
    String prefix = "t" + TRIES.incrementAndGet() + "-";
    Key a = pair[0];
    Key b = pair[1];
    boolean aAccepted = put(prefix, a, "a");
    boolean bAccepted = put(prefix, b, "b");
    String aString = prefix + a.string();
    String bString = prefix + b.string();
    Statistics.collect(aAccepted ? "a accepted" : "a refused",
        bAccepted ? "b accepted" : "b refused",
        Objects.equals(a.string(), b.string()) ? "same string" : "different strings");
    if (aAccepted) {
      String expected = bAccepted && bString.equals(aString) ? "b" : "a";
      assertThat(get(aString)).as("the item of %s", a).isEqualTo(Map.of(aString, expected));
    }
    if (bAccepted) {
      assertThat(get(bString)).as("the item of %s", b).isEqualTo(Map.of(bString, "b"));
    }
  }

  /** Puts {@code {id: prefix + key, v: payload}}; checks it is accepted when the model says so. */
  private static boolean put(String prefix, Key key, String payload) throws Exception {
    byte[] body = concat(ascii("{\"TableName\":\"" + TABLE + "\",\"Item\":{\"id\":{\"S\":\""
        + prefix), key.bytes(), ascii("\"},\"v\":{\"S\":\"" + payload + "\"}}}"));
    Answer answer = post("PutItem", body);
    if (key.acceptable()) {
      assertThat(answer.status()).as("PutItem of %s: %s", key, answer.body()).isEqualTo(200);
      return true;
    }
    assertThat(answer.status()).as("PutItem of %s: %s", key, answer.body()).isEqualTo(400);
    assertThat(answer.body()).as("PutItem of %s", key)
        .startsWith("{\"__type\":\"com.amazon.coral.service#SerializationException\",\"Message\"");
    return false;
  }

  /** The item of key {@code id}, spelled all in ASCII escapes, as {@code {id: v}}. */
  private static Map<String, String> get(String id) throws Exception {
    StringBuilder key = new StringBuilder();
    for (char c : id.toCharArray()) {
      key.append(c >= 0x20 && c < 0x7F && c != '"' && c != '\\' ? String.valueOf(c)
          : String.format("\\u%04x", (int) c));
    }
    Answer answer = post("GetItem", ascii("{\"TableName\":\"" + TABLE
        + "\",\"Key\":{\"id\":{\"S\":\"" + key + "\"}},\"ConsistentRead\":true}"));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    Map<String, String> strings = new TreeMap<>();
    try (JsonParser parser = JSON.createParser(answer.bytes())) {
      List<String> path = new ArrayList<>();
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        switch (token) {
          case FIELD_NAME -> path.set(path.size() - 1, parser.currentName());
          case START_OBJECT -> path.add(null);
          case END_OBJECT -> path.remove(path.size() - 1);
          case VALUE_STRING -> strings.put(String.join("/", path), parser.getText());
          default -> { }
        }
      }
    }
    return strings.isEmpty() ? Map.of() : Map.of(strings.get("Item/id/S"), strings.get("Item/v/S"));
  }

  // ---- generated keys -----------------------------------------------------------------------

  /**
   * One piece of a key: what it stands for on its own (what {@link #respelled} writes anew), and
   * how it is written in the JSON string.
   */
  record Piece(String chars, byte[] bytes, boolean malformed) {
    @Override
    public String toString() {
      return malformed ? "bytes" + hex(bytes) : new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** A key as written: its pieces one after the other. */
  record Key(List<Piece> pieces) {
    /**
     * The string the key's bytes spell, or null if they are no UTF-8: a strict decode, then
     * JSON's escapes. (Pieces may combine: bad bytes {@code EF BF} then {@code 80} are U+FFC0,
     * and an escaped high surrogate then an escaped low one are one character.)
     */
    String string() {
      String decoded;
      try {
        decoded = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes()))
            .toString();
      } catch (CharacterCodingException e) {
        return null;
      }
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < decoded.length(); i++) {
        char c = decoded.charAt(i);
        if (c != '\\') {
          s.append(c);
          continue;
        }
        char e = decoded.charAt(++i);
        switch (e) {
          case 'u' -> {
            s.append((char) Integer.parseInt(decoded.substring(i + 1, i + 5), 16));
            i += 4;
          }
          case 'b' -> s.append('\b');
          case 'f' -> s.append('\f');
          case 'n' -> s.append('\n');
          case 'r' -> s.append('\r');
          case 't' -> s.append('\t');
          default -> s.append(e); // " \ /
        }
      }
      return s.toString();
    }

    byte[] bytes() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      pieces.forEach(p -> out.writeBytes(p.bytes()));
      return out.toByteArray();
    }

    /** The model: UTF-8 bytes, and a string that UTF-8 can encode (no unpaired surrogate). */
    boolean acceptable() {
      String string = string();
      return string != null && StandardCharsets.UTF_8.newEncoder().canEncode(string);
    }

    Key with(int index, Piece piece) {
      List<Piece> copy = new ArrayList<>(pieces);
      if (copy.isEmpty()) {
        copy.add(piece);
      } else {
        copy.set(index % copy.size(), piece);
      }
      return new Key(copy);
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("\"");
      pieces.forEach(s::append);
      return s.append('"').toString();
    }
  }

  /** Ways to write a character: raw UTF-8, <code>&#92;u</code> escapes in lower or upper case. */
  private static final int RAW = 0;
  private static final int LOWER = 1;
  private static final int UPPER = 2;

  private static final List<byte[]> MALFORMED = List.of(
      bytes(0xF4, 0x90, 0x80, 0x80), // beyond U+10FFFF
      bytes(0xC0, 0x80), // overlong NUL
      bytes(0xC0, 0xBF), // overlong '?'
      bytes(0xE0, 0x80, 0xBF), // overlong '?' in three bytes
      bytes(0xEF, 0xBF), // U+FFFD cut short
      bytes(0xF0, 0x9F, 0x98), // U+1F600 cut short
      bytes(0x80), // a bare continuation byte
      bytes(0xED, 0xA0, 0x80), // the surrogate U+D800, encoded
      bytes(0xED, 0xBF, 0xBF), // the surrogate U+DFFF, encoded
      bytes(0xFF));

  static Piece character(int codePoint, int style) {
    String chars = Character.toString(codePoint);
    String shortEscape = switch (codePoint) {
      case '"' -> "\\\"";
      case '\\' -> "\\\\";
      case '/' -> style == UPPER ? "\\/" : null;
      case '\n' -> "\\n";
      case '\t' -> "\\t";
      case '\b' -> "\\b";
      case '\f' -> "\\f";
      case '\r' -> "\\r";
      default -> null;
    };
    if (style == RAW && codePoint >= 0x20 && shortEscape == null) {
      return new Piece(chars, chars.getBytes(StandardCharsets.UTF_8), false);
    }
    if (shortEscape != null && (style != LOWER || codePoint < 0x20 && codePoint != 0)) {
      return new Piece(chars, ascii(shortEscape), false);
    }
    return new Piece(chars, ascii(escape(chars, style == UPPER)), false);
  }

  static Piece loneSurrogate(int unit, boolean upper) {
    String chars = String.valueOf((char) unit);
    return new Piece(chars, ascii(escape(chars, upper)), false);
  }

  static Piece malformed(byte[] bytes) {
    return new Piece("\uFFFD", bytes, true);
  }

  private static String escape(String chars, boolean upper) {
    StringBuilder s = new StringBuilder();
    for (char c : chars.toCharArray()) {
      s.append(String.format(upper ? "\\u%04X" : "\\u%04x", (int) c));
    }
    return s.toString();
  }

  @Provide
  Arbitrary<Key[]> pairs() {
    Arbitrary<Key> keys = pieces().list().ofMaxSize(8).map(Key::new);
    return keys.flatMap(a -> Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(a)),
            Tuple.of(3, respelled(a)),
            Tuple.of(4, Combinators.combine(Arbitraries.integers().between(0, 7), lookAlikes())
                .as(a::with)),
            Tuple.of(2, keys))
        .map(b -> new Key[] {a, b}));
  }

  private static Arbitrary<Piece> pieces() {
    Arbitrary<Integer> codePoints = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.integers().between(0x20, 0x7E)),
        Tuple.of(1, Arbitraries.integers().between(0, 0x1F)),
        Tuple.of(2, Arbitraries.of(
            (int) '?', 0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF,
            0x10000, 0x1F600, 0x10FFFF)),
        Tuple.of(2, Arbitraries.integers().between(0x80, 0xD7FF)),
        Tuple.of(1, Arbitraries.integers().between(0xE000, 0xFFFF)),
        Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)));
    Arbitrary<Piece> characters = Combinators.combine(
        codePoints, Arbitraries.integers().between(RAW, UPPER)).as(KeyAliasingTest::character);
    Arbitrary<Piece> surrogates = Combinators.combine(
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.integers().between(0xD800, 0xDFFF)),
            Tuple.of(1, Arbitraries.of(0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00))),
        Arbitraries.of(false, true)).as(KeyAliasingTest::loneSurrogate);
    Arbitrary<Piece> malformed = Arbitraries.of(MALFORMED).map(KeyAliasingTest::malformed);
    return Arbitraries.frequencyOf(
        Tuple.of(8, characters), Tuple.of(2, surrogates), Tuple.of(1, malformed));
  }

  /** What a lenient reader might turn a bad piece into, and bad pieces. */
  private static Arbitrary<Piece> lookAlikes() {
    return Arbitraries.oneOf(
        Combinators.combine(Arbitraries.of((int) '?', 0xFFFD, 0), Arbitraries.of(RAW, LOWER))
            .as(KeyAliasingTest::character),
        Arbitraries.of(0xD800, 0xDFFF, 0xDBFF, 0xDC00).map(u -> loneSurrogate(u, false)),
        Arbitraries.of(MALFORMED).map(KeyAliasingTest::malformed));
  }

  /** The same characters, each written in a way drawn anew. */
  private static Arbitrary<Key> respelled(Key key) {
    return Arbitraries.integers().between(RAW, UPPER).list().ofSize(key.pieces().size())
        .map(styles -> {
          List<Piece> pieces = new ArrayList<>();
          for (int i = 0; i < styles.size(); i++) {
            Piece p = key.pieces().get(i);
            String chars = p.chars();
            boolean lone = chars.length() == 1 && Character.isSurrogate(chars.charAt(0));
            pieces.add(p.malformed() ? p
                : lone ? loneSurrogate(chars.charAt(0), styles.get(i) == UPPER)
                : character(chars.codePointAt(0), styles.get(i)));
          }
          return new Key(pieces);
        });
  }

  // ---- HTTP ---------------------------------------------------------------------------------

  record Answer(int status, byte[] bytes) {
    String body() {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  private static Answer post(String operation, byte[] body) throws IOException,
      InterruptedException {
    HttpResponse<byte[]> response = client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "DynamoDB_20120810." + operation)
            .header("Authorization", AUTH)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.body());
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private static byte[] bytes(int... unsigned) {
    byte[] bytes = new byte[unsigned.length];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) unsigned[i];
    }
    return bytes;
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder("[");
    for (byte b : bytes) {
      s.append(String.format(s.length() > 1 ? " %02X" : "%02X", b & 0xFF));
    }
    return s.append(']').toString();
  }
}
