package io.stator.partiql;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ExecuteStatement's NextToken, opaque to the client: where a SELECT stopped. That is the
 * LastEvaluatedKey of the Query or Scan it ran and, for a SELECT that reads several partitions
 * (an {@code IN} on the partition key), which of them it was reading; a SELECT that stopped
 * between two partitions has no key, only the partition to start. A version byte comes first, so
 * that a later format can refuse this one; a token that does not decode is a ValidationException,
 * and one that decodes to a key the table does not have is refused by the Query or Scan as an
 * ExclusiveStartKey would be.
 */
final class NextTokens {
  /** Version 1 held the key alone; it still reads, as the first partition's. */
  private static final int KEY_ONLY = 1;

  private static final int VERSION = 2;

  private NextTokens() {}

  /** Where a read resumes: its {@code partition}th partition, after {@code key} or at its start. */
  record Position(int partition, Map<String, AttributeValue> key) {
    static final Position START = new Position(0, null);
  }

  static String encode(Map<String, AttributeValue> lastEvaluatedKey) {
    return lastEvaluatedKey == null ? null : encode(new Position(0, lastEvaluatedKey));
  }

  static String encode(Position position) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Map<String, AttributeValue> key = position.key() == null ? Map.of() : position.key();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeShort(position.partition());
      out.writeByte(key.size());
      for (Map.Entry<String, AttributeValue> entry : key.entrySet()) {
        out.writeUTF(entry.getKey());
        AttributeValue value = entry.getValue();
        out.writeUTF(value.type());
        byte[] content =
            value instanceof AttributeValue.B b
                ? b.value().toByteArray()
                : text(value).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(content.length);
        out.write(content);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
  }

  private static String text(AttributeValue value) {
    if (value instanceof AttributeValue.S s) {
      return s.value();
    }
    if (value instanceof AttributeValue.N n) {
      return n.value();
    }
    throw new IllegalArgumentException("a key attribute is S, N or B, not " + value.type());
  }

  /** The key of a token that names no partition but the first: a Query's or a Scan's. */
  static Map<String, AttributeValue> decode(String token) {
    Position position = position(token);
    if (position.partition() != 0) {
      throw invalid();
    }
    return position.key();
  }

  static Position position(String token) {
    if (token == null) {
      return Position.START;
    }
    try (DataInputStream in =
        new DataInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(token)))) {
      int version = in.readUnsignedByte();
      if (version != VERSION && version != KEY_ONLY) {
        throw invalid();
      }
      int partition = version == VERSION ? in.readUnsignedShort() : 0;
      int count = in.readUnsignedByte();
      Map<String, AttributeValue> key = new LinkedHashMap<>();
      for (int i = 0; i < count; i++) {
        String name = in.readUTF();
        String type = in.readUTF();
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
          throw invalid();
        }
        byte[] content = in.readNBytes(length);
        String text = new String(content, java.nio.charset.StandardCharsets.UTF_8);
        key.put(
            name,
            switch (type) {
              case "S" -> AttributeValue.s(text);
              case "N" -> AttributeValue.n(text);
              case "B" -> new AttributeValue.B(Bytes.of(content));
              default -> throw invalid();
            });
      }
      if (in.available() != 0) {
        throw invalid();
      }
      return new Position(partition, key.isEmpty() ? null : key);
    } catch (IOException | RuntimeException e) {
      // Not base64, cut short, a number that is none: all one mistake to the client.
      throw invalid();
    }
  }

  static DynamoDbException invalid() {
    return DynamoDbException.validation("Invalid NextToken");
  }
}
