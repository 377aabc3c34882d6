/**
 * DynamoDB Streams: the records written in the commit of the change they describe, their
 * sequence numbers, the shards of each stream (one per capacity partition, rotated every four
 * hours, see {@code ShardLayout}), and the Streams API read side.
 */
package io.stator.stream;
