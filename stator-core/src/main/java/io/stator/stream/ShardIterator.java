package io.stator.stream;

import io.stator.api.DynamoDbException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A shard iterator: which stream and shard (by its key: start sequence number and hash range,
 * see {@link ShardLayout}), the position (read the records after this sequence number, or from
 * the trim horizon), and when it was made (it expires 15 minutes later). Clients treat it as
 * opaque; it is {@code 2|tableId|stream creation|open|start|end|position|issued|stream ARN} in
 * URL-safe base64, the leading format version letting a later release refuse old iterators
 * (version 1, of shards without hash ranges, is refused as invalid).
 */
record ShardIterator(
    String tableId, long streamCreatedMillis, long open, long start, long end, long position,
    long issuedMillis, String streamArn) {

  /** The position of a TRIM_HORIZON iterator: the oldest record kept when it is used. */
  static final long TRIM_HORIZON = -1;

  ShardIterator(String tableId, long streamCreatedMillis, ShardLayout.Shard shard, long position,
      long issuedMillis, String streamArn) {
    this(tableId, streamCreatedMillis, shard.open(), shard.start(), shard.end(), position,
        issuedMillis, streamArn);
  }

  String encode() {
    String text =
        "2|" + tableId + "|" + streamCreatedMillis + "|" + open + "|" + start + "|" + end + "|"
            + position + "|" + issuedMillis + "|" + streamArn;
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static ShardIterator decode(String encoded) {
    try {
      String text =
          new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
      String[] parts = text.split("\\|", 9);
      if (parts.length != 9 || !parts[0].equals("2")) {
        throw invalid();
      }
      return new ShardIterator(
          parts[1], Long.parseLong(parts[2]), Long.parseLong(parts[3]), Long.parseLong(parts[4]),
          Long.parseLong(parts[5]), Long.parseLong(parts[6]), Long.parseLong(parts[7]),
          parts[8]);
    } catch (IllegalArgumentException e) { // also NumberFormatException
      throw invalid();
    }
  }

  private static DynamoDbException invalid() {
    return DynamoDbException.validation("Invalid ShardIterator");
  }
}
