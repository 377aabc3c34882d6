package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/** Rows of {@code records} as the SPI's records, and the wait for an asynchronous read. */
final class Rows {
  private Rows() {}

  /** A row of {@code SELECT partition, sort, version, value}. */
  static StoredRecord record(Row row) {
    return new StoredRecord(
        new StorageKey(bytes(row.getByteBuffer(0)), bytes(row.getByteBuffer(1))),
        row.getLong(2),
        bytes(row.getByteBuffer(3)));
  }

  /** What a point read of {@code key} found: a row of {@code SELECT version, value}, or none. */
  static Optional<StoredRecord> found(StorageKey key, Row row) {
    return row == null
        ? Optional.empty()
        : Optional.of(new StoredRecord(key, row.getLong(0), bytes(row.getByteBuffer(1))));
  }

  /** A row of a query of {@code partition}: {@code SELECT sort, version, value}. */
  static StoredRecord inPartition(byte[] partition, Row row) {
    return new StoredRecord(
        new StorageKey(partition, bytes(row.getByteBuffer(0))),
        row.getLong(1),
        bytes(row.getByteBuffer(2)));
  }

  /** Waits for an asynchronous request, failing as its synchronous form would. */
  static AsyncResultSet answer(CompletionStage<AsyncResultSet> stage) {
    try {
      return stage.toCompletableFuture().join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof DriverException cause) {
        throw cause;
      }
      throw e;
    }
  }

  static byte[] bytes(ByteBuffer buffer) {
    if (buffer == null) {
      return new byte[0];
    }
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
