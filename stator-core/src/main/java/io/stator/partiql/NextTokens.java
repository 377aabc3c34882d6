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
 * ExecuteStatement's NextToken: the LastEvaluatedKey of the Query or Scan a SELECT ran, opaque
 * to the client. A version byte comes first, so that a later format can refuse this one; a
 * token that does not decode is a ValidationException, and one that decodes to a key the table
 * does not have is refused by the Query or Scan as an ExclusiveStartKey would be.
 */
final class NextTokens {
  private static final int VERSION = 1;

  private NextTokens() {}

  static String encode(Map<String, AttributeValue> lastEvaluatedKey) {
    if (lastEvaluatedKey == null) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeByte(lastEvaluatedKey.size());
      for (Map.Entry<String, AttributeValue> entry : lastEvaluatedKey.entrySet()) {
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

  static Map<String, AttributeValue> decode(String token) {
    if (token == null) {
      return null;
    }
    try (DataInputStream in =
        new DataInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(token)))) {
      if (in.readUnsignedByte() != VERSION) {
        throw invalid();
      }
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
      return key;
    } catch (IOException | RuntimeException e) {
      // Not base64, cut short, a number that is none: all one mistake to the client.
      throw invalid();
    }
  }

  private static DynamoDbException invalid() {
    return DynamoDbException.validation("Invalid NextToken");
  }
}
