package io.stator.api;

/**
 * DynamoDB Streams: the change records of tables with a stream enabled, one method per
 * operation of the Streams API (target prefix {@code DynamoDBStreams_20120810}), with its
 * semantics and errors ({@link io.stator.api.DynamoDbException}).
 *
 * <p>{@link io.stator.api.Database} extends it, so every database answers these operations
 * itself; the engine's stream component implements it on its own too.
 */
public interface DynamoDbStreams {
  ListStreamsResponse listStreams(ListStreamsRequest request);

  DescribeStreamResponse describeStream(DescribeStreamRequest request);

  GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request);

  GetRecordsResponse getRecords(GetRecordsRequest request);
}
