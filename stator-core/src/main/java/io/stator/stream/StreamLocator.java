package io.stator.stream;

import io.stator.api.DynamoDbException;
import io.stator.api.Stream;
import io.stator.schema.Catalog;
import io.stator.schema.Constraints;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.StorageException;
import java.util.Optional;

/**
 * Streams by their ARNs: the ARN of a table's stream, the stream an ARN names (of a live table,
 * or of one deleted within 24 hours), and the length rules of ARNs and shard ids.
 */
final class StreamLocator {
  private final Catalog catalog;
  private final StreamSequencer sequencer;
  private final String arnPrefix;
  private final ShardFollowing following;
  private final StreamRetention retention;

  StreamLocator(Catalog catalog, StreamSequencer sequencer, String region, String accountId,
      ShardFollowing following, StreamRetention retention) {
    this.catalog = catalog;
    this.sequencer = sequencer;
    this.arnPrefix = "arn:aws:dynamodb:" + region + ":" + accountId + ":table/";
    this.following = following;
    this.retention = retention;
  }

  LocatedStream locate(String streamArn) {
    DynamoDbException notFound =
        DynamoDbException.resourceNotFound(
            "Requested resource not found: Stream: " + streamArn + " not found");
    if (!streamArn.startsWith(arnPrefix)) {
      throw notFound;
    }
    String rest = streamArn.substring(arnPrefix.length());
    int marker = rest.indexOf("/stream/");
    if (marker <= 0) {
      throw notFound;
    }
    String tableName = rest.substring(0, marker);
    String label = rest.substring(marker + "/stream/".length());
    Optional<Catalog.Entry> entry;
    try {
      entry = catalog.get(tableName);
    } catch (StorageException e) {
      throw notFound;
    }
    long now = sequencer.millis();
    if (entry.isPresent()) {
      TableDefinition table = entry.get().table();
      for (StreamDefinition s : table.streams()) {
        if (s.label().equals(label) && StreamRetention.kept(s, now)) {
          if (s.enabled() && s.partitions().isEmpty() && following.follow(table, s)) {
            return locate(streamArn); // its first layout was just recorded
          }
          return new LocatedStream(table, s);
        }
      }
    }
    for (TableDefinition table : retention.retired(now)) {
      if (!table.name().equals(tableName)) {
        continue;
      }
      for (StreamDefinition s : table.streams()) {
        if (s.label().equals(label) && StreamRetention.kept(s, now)) {
          return new LocatedStream(table, s);
        }
      }
    }
    throw notFound;
  }

  String arn(TableDefinition table, StreamDefinition stream) {
    return arnPrefix + table.name() + "/stream/" + stream.label();
  }

  static void arnLength(Constraints c, String path, String arn) {
    if (arn != null) {
      c.lengthAtLeast(path, arn, arn.length(), 37);
      c.lengthAtMost(path, arn, arn.length(), 1024);
    }
  }

  static void shardIdLength(Constraints c, String path, String shardId) {
    if (shardId != null) {
      c.lengthAtLeast(path, shardId, shardId.length(), 28);
      c.lengthAtMost(path, shardId, shardId.length(), 65);
    }
  }
}
