/**
 * The DynamoDB Streams API (ListStreams, DescribeStream, GetShardIterator, GetRecords): {@link
 * io.stator.api.streams.DynamoDbStreams} and its request and response records, which the engine
 * implements beside {@link io.stator.api.Database}.
 */
package io.stator.api.streams;
