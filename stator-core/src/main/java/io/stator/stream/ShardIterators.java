package io.stator.stream;

import io.stator.api.DynamoDbException;

/** What a client may learn of a shard iterator without reading the stream. */
public final class ShardIterators {
  private ShardIterators() {}

  /**
   * The ARN of the stream a shard iterator reads, or null when {@code shardIterator} is not one
   * (GetRecords then refuses it). Access control authorizes GetRecords on this stream.
   */
  public static String streamArn(String shardIterator) {
    if (shardIterator == null) {
      return null;
    }
    try {
      return ShardIterator.decode(shardIterator).streamArn();
    } catch (DynamoDbException e) {
      return null;
    }
  }
}
