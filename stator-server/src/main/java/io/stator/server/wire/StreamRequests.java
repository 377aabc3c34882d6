package io.stator.server.wire;

import io.stator.api.DescribeStreamRequest;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ShardFilter;
import java.io.IOException;

/**
 * Readers of the DynamoDB Streams request shapes, in the spec's PascalCase names; unknown
 * members are skipped.
 */
final class StreamRequests {
  private StreamRequests() {}

  static ListStreamsRequest listStreams(JsonInput in) throws IOException {
    String tableName = null;
    Integer limit = null;
    String exclusiveStartStreamArn = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "Limit" -> limit = in.integer();
        case "ExclusiveStartStreamArn" -> exclusiveStartStreamArn = in.string();
        default -> in.skip();
      }
    }
    return new ListStreamsRequest(tableName, limit, exclusiveStartStreamArn);
  }

  static DescribeStreamRequest describeStream(JsonInput in) throws IOException {
    String streamArn = null;
    Integer limit = null;
    String exclusiveStartShardId = null;
    ShardFilter shardFilter = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "StreamArn" -> streamArn = in.string();
        case "Limit" -> limit = in.integer();
        case "ExclusiveStartShardId" -> exclusiveStartShardId = in.string();
        case "ShardFilter" -> shardFilter = shardFilter(in);
        default -> in.skip();
      }
    }
    return new DescribeStreamRequest(streamArn, limit, exclusiveStartShardId, shardFilter);
  }

  private static ShardFilter shardFilter(JsonInput in) throws IOException {
    return in.struct("ShardFilter", s -> {
      String type = null;
      String shardId = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Type" -> type = s.string();
          case "ShardId" -> shardId = s.string();
          default -> s.skip();
        }
      }
      return new ShardFilter(type, shardId);
    });
  }

  static GetShardIteratorRequest getShardIterator(JsonInput in) throws IOException {
    String streamArn = null;
    String shardId = null;
    String shardIteratorType = null;
    String sequenceNumber = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "StreamArn" -> streamArn = in.string();
        case "ShardId" -> shardId = in.string();
        case "ShardIteratorType" -> shardIteratorType = in.string();
        case "SequenceNumber" -> sequenceNumber = in.string();
        default -> in.skip();
      }
    }
    return new GetShardIteratorRequest(streamArn, shardId, shardIteratorType, sequenceNumber);
  }

  static GetRecordsRequest getRecords(JsonInput in) throws IOException {
    String shardIterator = null;
    Integer limit = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ShardIterator" -> shardIterator = in.string();
        case "Limit" -> limit = in.integer();
        default -> in.skip();
      }
    }
    return new GetRecordsRequest(shardIterator, limit);
  }
}
