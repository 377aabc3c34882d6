package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.stator.storage.Bound;
import io.stator.storage.StorageKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The reads of {@code records}, one prepared statement per shape: a get; a query for each
 * combination of lower bound, upper bound (absent, inclusive, exclusive) and direction (18); a
 * scan of one bucket for each combination of its start (the bucket's, a partition's, after a
 * key) and end (the bucket's, before a partition) (6); a bucket's sizes; a bucket's delete. A shape is prepared
 * the first time it is used, and every request binds values to it: no CQL text per request.
 *
 * <p>Each read is sent as one page of at most its limit (see {@link #onePage}), so it is one
 * Accord read, which sees every commit wholly or not at all.
 */
final class RecordStatements {
  private static final int QUERY_SHAPES = 3 * 3 * 2;
  private static final int SCAN_SHAPES = 3 * 2;

  private final CqlSession session;
  private final String keyspace;
  private final PreparedStatement get;
  private final PreparedStatement deleteBucket;
  private final PreparedStatement sizes;
  private final AtomicReferenceArray<PreparedStatement> queries =
      new AtomicReferenceArray<>(QUERY_SHAPES);
  private final AtomicReferenceArray<PreparedStatement> scans =
      new AtomicReferenceArray<>(SCAN_SHAPES);

  RecordStatements(CqlSession session, String keyspace) {
    this.session = session;
    this.keyspace = keyspace;
    get = session.prepare(
        "SELECT version, value FROM " + keyspace + ".records"
            + " WHERE space = ? AND bucket = ? AND partition = ? AND sort = ?");
    deleteBucket =
        session.prepare("DELETE FROM " + keyspace + ".records WHERE space = ? AND bucket = ?");
    sizes =
        session.prepare("SELECT size FROM " + keyspace + ".records WHERE space = ? AND bucket = ?");
  }

  BoundStatement get(UUID space, StorageKey key) {
    return get.bind(
        space, ScanRange.bucket(key.partition()), buffer(key.partition()), buffer(key.sort()));
  }

  /** The delete of a whole bucket of a space: one Cassandra partition delete. */
  BoundStatement deleteBucket(UUID space, int bucket) {
    return deleteBucket.bind(space, bucket);
  }

  /** The size of each record of a bucket, and no value: {@code SELECT size}, in pages. */
  BoundStatement sizes(UUID space, int bucket) {
    return sizes.bind(space, bucket);
  }

  /** A slice of one partition: {@code SELECT sort, version, value}. */
  BoundStatement query(
      UUID space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    int shape = (kind(lower) * 3 + kind(upper)) * 2 + (forward ? 0 : 1);
    PreparedStatement statement = queries.get(shape);
    if (statement == null) {
      StringBuilder cql = new StringBuilder("SELECT sort, version, value FROM ")
          .append(keyspace)
          .append(".records WHERE space = ? AND bucket = ? AND partition = ?");
      if (lower != null) {
        cql.append(lower.inclusive() ? " AND sort >= ?" : " AND sort > ?");
      }
      if (upper != null) {
        cql.append(upper.inclusive() ? " AND sort <= ?" : " AND sort < ?");
      }
      if (!forward) {
        cql.append(" ORDER BY partition DESC, sort DESC");
      }
      cql.append(" LIMIT ?");
      statement = prepare(queries, shape, cql.toString());
    }
    List<Object> values = new ArrayList<>(6);
    values.add(space);
    values.add(ScanRange.bucket(partition));
    values.add(buffer(partition));
    if (lower != null) {
      values.add(buffer(lower.sort()));
    }
    if (upper != null) {
      values.add(buffer(upper.sort()));
    }
    values.add(limit);
    return onePage(statement.bind(values.toArray()), limit);
  }

  /**
   * One bucket of a scan, cut where {@code range} says it starts and ends: {@code SELECT
   * partition, sort, version, value}.
   */
  BoundStatement scan(UUID space, int bucket, ScanRange range, int limit) {
    ScanRange.Start start = range.cutAtStart(bucket) ? range.start() : new ScanRange.FromTheStart();
    boolean end = range.cutAtEnd(bucket);
    int startKind =
        start instanceof ScanRange.AtPartition ? 1 : start instanceof ScanRange.AfterKey ? 2 : 0;
    int shape = startKind * 2 + (end ? 1 : 0);
    PreparedStatement statement = scans.get(shape);
    if (statement == null) {
      StringBuilder cql = new StringBuilder("SELECT partition, sort, version, value FROM ")
          .append(keyspace)
          .append(".records WHERE space = ? AND bucket = ?");
      cql.append(switch (startKind) {
        case 1 -> " AND (partition) >= (?)";
        case 2 -> " AND (partition, sort) > (?, ?)";
        default -> "";
      });
      if (end) {
        cql.append(" AND (partition) < (?)");
      }
      cql.append(" LIMIT ?");
      statement = prepare(scans, shape, cql.toString());
    }
    List<Object> values = new ArrayList<>(6);
    values.add(space);
    values.add(bucket);
    if (start instanceof ScanRange.AtPartition at) {
      values.add(buffer(at.partition()));
    } else if (start instanceof ScanRange.AfterKey after) {
      values.add(buffer(after.key().partition()));
      values.add(buffer(after.key().sort()));
    }
    if (end) {
      values.add(buffer(range.endBefore()));
    }
    values.add(limit);
    return onePage(statement.bind(values.toArray()), limit);
  }

  /** Prepares a shape once; two threads preparing it at once get the same statement back. */
  private PreparedStatement prepare(
      AtomicReferenceArray<PreparedStatement> shapes, int shape, String cql) {
    PreparedStatement statement = session.prepare(cql);
    shapes.compareAndSet(shape, null, statement);
    return shapes.get(shape);
  }

  private static int kind(Bound bound) {
    return bound == null ? 0 : bound.inclusive() ? 1 : 2;
  }

  /**
   * One page for the whole read: each page is a transaction of its own, and only one read sees
   * commits atomically.
   */
  private static BoundStatement onePage(BoundStatement statement, int limit) {
    return statement.setPageSize(Math.max(1, limit));
  }

  static ByteBuffer buffer(byte[] bytes) {
    return ByteBuffer.wrap(bytes);
  }
}
