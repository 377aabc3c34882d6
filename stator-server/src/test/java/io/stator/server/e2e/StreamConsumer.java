package io.stator.server.e2e;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A stream consumer written as for DynamoDB, with the SDK's low-level client: it lists the
 * shards (following LastEvaluatedShardId), reads a shard only after its parent is done, reads a
 * closed shard until it has no NextShardIterator and an open one until it is caught up.
 */
final class StreamConsumer {
  private final DynamoDbStreamsClient streams;
  private final String streamArn;

  StreamConsumer(DynamoDbStreamsClient streams, String streamArn) {
    this.streams = streams;
    this.streamArn = streamArn;
  }

  /** Every record the stream keeps, from TRIM_HORIZON, in parent/child order. */
  List<Record> readAll() {
    List<Shard> shards = shards();
    Set<String> done = new HashSet<>();
    List<Record> out = new ArrayList<>();
    while (done.size() < shards.size()) {
      boolean progressed = false;
      for (Shard shard : shards) {
        boolean parentDone =
            shard.parentShardId() == null
                || done.contains(shard.parentShardId())
                || shards.stream().noneMatch(s -> s.shardId().equals(shard.parentShardId()));
        if (done.contains(shard.shardId()) || !parentDone) {
          continue;
        }
        out.addAll(readShard(shard.shardId(), shard.sequenceNumberRange().endingSequenceNumber()
            != null));
        done.add(shard.shardId());
        progressed = true;
      }
      if (!progressed) {
        throw new AssertionError("shards form no parent/child order: " + shards);
      }
    }
    return out;
  }

  /**
   * {@link #readAll} again until what it reads satisfies {@code enough}, for a minute at most:
   * through one of several servers, a record written through another is readable a watermark
   * interval after its write was acknowledged, or later if that server stalls (see {@code
   * stream.Watermarks}), so a reader that found an open shard caught up may yet see more.
   */
  List<Record> readUntil(Predicate<List<Record>> enough) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<Record> read = readAll();
    while (!enough.test(read) && System.nanoTime() < deadline) {
      read = readAll();
    }
    return read;
  }

  List<Shard> shards() {
    List<Shard> shards = new ArrayList<>();
    String start = null;
    do {
      String from = start;
      var d = streams.describeStream(r -> r.streamArn(streamArn).exclusiveStartShardId(from))
          .streamDescription();
      shards.addAll(d.shards());
      start = d.lastEvaluatedShardId();
    } while (start != null);
    return shards;
  }

  private List<Record> readShard(String shardId, boolean closed) {
    String iterator = streams.getShardIterator(r -> r.streamArn(streamArn).shardId(shardId)
        .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
    List<Record> out = new ArrayList<>();
    while (iterator != null) {
      String it = iterator;
      GetRecordsResponse page = streams.getRecords(r -> r.shardIterator(it));
      out.addAll(page.records());
      if (!closed && page.records().isEmpty()) {
        break; // an open shard: caught up
      }
      iterator = page.nextShardIterator();
    }
    return out;
  }
}
