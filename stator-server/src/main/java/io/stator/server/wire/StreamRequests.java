package io.stator.server.wire;

import static io.stator.server.wire.ShapeReader.member;
import static io.stator.server.wire.ShapeReader.request;
import static io.stator.server.wire.ShapeReader.structure;

import io.stator.api.DescribeStreamRequest;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ShardFilter;
import io.stator.server.wire.ShapeReader.Member;

/**
 * Readers of the DynamoDB Streams request shapes, in the spec's PascalCase names; unknown
 * members are skipped.
 */
final class StreamRequests {
  private StreamRequests() {}

  private static final Member STREAM_ARN = member("StreamArn", JsonInput::string);
  private static final Member LIMIT = member("Limit", JsonInput::integer);

  static final ShapeReader<ListStreamsRequest> LIST_STREAMS = request(
      v -> new ListStreamsRequest(v.next(), v.next(), v.next()),
      Requests.TABLE_NAME, LIMIT, member("ExclusiveStartStreamArn", JsonInput::string));

  static final ShapeReader<DescribeStreamRequest> DESCRIBE_STREAM = request(
      v -> new DescribeStreamRequest(v.next(), v.next(), v.next(), v.next()),
      STREAM_ARN, LIMIT, member("ExclusiveStartShardId", JsonInput::string),
      member("ShardFilter", structure("ShardFilter", v -> new ShardFilter(v.next(), v.next()),
          member("Type", JsonInput::string), member("ShardId", JsonInput::string))));

  static final ShapeReader<GetShardIteratorRequest> GET_SHARD_ITERATOR = request(
      v -> new GetShardIteratorRequest(v.next(), v.next(), v.next(), v.next()),
      STREAM_ARN, member("ShardId", JsonInput::string),
      member("ShardIteratorType", JsonInput::string),
      member("SequenceNumber", JsonInput::string));

  static final ShapeReader<GetRecordsRequest> GET_RECORDS = request(
      v -> new GetRecordsRequest(v.next(), v.next()),
      member("ShardIterator", JsonInput::string), LIMIT);
}
