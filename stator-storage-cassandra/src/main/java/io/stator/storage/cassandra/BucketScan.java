package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.stator.storage.ScanPage;
import io.stator.storage.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * One page of a scan over a space's buckets, read ahead in parallel.
 *
 * <p>A space's records are spread over 256 Cassandra partitions, its buckets; a scan reads them
 * in order, from the bucket its range starts in to the bucket it ends in. Reading them one after
 * the other would cost a small table's full scan 256 round trips, most of them to empty buckets;
 * reading all at once would cost a large table's short page 256 reads of a page each. So the
 * buckets are read in windows that double, 1, 2, 4 … up to {@value #MOST_AHEAD} at a time, all of
 * a window's reads sent together with the driver's asynchronous API and each asking for as many
 * records as the page still wants (and one more, to know whether more follow); a window's
 * answers are taken in bucket order, and those the page no longer needs are cancelled.
 *
 * <p>A page that fills up exactly at the end of a bucket says that more follow without reading
 * the buckets after it (the SPI lets a page end early; the next page starts in the next bucket
 * and may be empty). Each bucket's read is one Accord read and sees every commit wholly or not
 * at all; a page spanning buckets reads each at its own instant, as successive pages do.
 */
final class BucketScan {
  /** The most buckets read at once. */
  static final int MOST_AHEAD = 64;

  private BucketScan() {}

  /** At most {@code limit} records of {@code range} (never null: an empty range is no call). */
  static ScanPage page(
      CqlSession session, RecordStatements statements, UUID space, ScanRange range, int limit) {
    List<StoredRecord> out = new ArrayList<>();
    int bucket = range.first();
    int ahead = 1;
    while (bucket <= range.last()) {
      int n = Math.min(ahead, range.last() - bucket + 1);
      int ask = limit == Integer.MAX_VALUE ? limit : limit - out.size() + 1;
      List<CompletionStage<AsyncResultSet>> reads = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        reads.add(session.executeAsync(statements.scan(space, bucket + i, range, ask)));
      }
      try {
        for (int i = 0; i < n; i++) {
          for (Row row : Rows.answer(reads.get(i)).currentPage()) {
            if (out.size() == limit) {
              return new ScanPage(out, true);
            }
            out.add(Rows.record(row));
          }
          if (out.size() == limit) {
            return new ScanPage(out, bucket + i < range.last());
          }
        }
      } finally {
        for (CompletionStage<AsyncResultSet> read : reads) {
          read.toCompletableFuture().cancel(false);
        }
      }
      bucket += n;
      ahead = Math.min(2 * ahead, MOST_AHEAD);
    }
    return new ScanPage(out, false);
  }
}
