package io.stator.stream;

import io.stator.api.DynamoDbException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A shard iterator: which stream and shard, the position (read the records after this sequence
 * number, or from the trim horizon), and when it was made (it expires 15 minutes later). Clients
 * treat it as opaque; it is {@code 1|tableId|stream creation|shard|position|issued|stream ARN} in
 * URL-safe base64, the leading format version letting a later release refuse old iterators.
 */
record Iterator(
    String tableId, long streamCreatedMillis, long shard, long position, long issuedMillis,
    String streamArn) {

  /** The position of a TRIM_HORIZON iterator: the oldest record kept when it is used. */
  static final long TRIM_HORIZON = -1;

  String encode() {
    String text =
        "1|" + tableId + "|" + streamCreatedMillis + "|" + shard + "|" + position + "|"
            + issuedMillis + "|" + streamArn;
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static Iterator decode(String encoded) {
    try {
      String text =
          new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
      String[] parts = text.split("\\|", 7);
      if (parts.length != 7 || !parts[0].equals("1")) {
        throw invalid();
      }
      return new Iterator(
          parts[1], Long.parseLong(parts[2]), Long.parseLong(parts[3]), Long.parseLong(parts[4]),
          Long.parseLong(parts[5]), parts[6]);
    } catch (IllegalArgumentException e) { // also NumberFormatException
      throw invalid();
    }
  }

  private static DynamoDbException invalid() {
    return DynamoDbException.validation("Invalid ShardIterator");
  }
}
