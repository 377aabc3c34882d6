package io.stator.export;

import static io.stator.export.JobRecords.COMPLETED;
import static io.stator.export.JobRecords.FAILED;
import static io.stator.export.JobRecords.IN_PROGRESS;

import io.stator.api.DescribeExportRequest;
import io.stator.api.DescribeExportResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ExportDescription;
import io.stator.api.ExportSummary;
import io.stator.api.ExportTableToPointInTimeRequest;
import io.stator.api.ExportTableToPointInTimeResponse;
import io.stator.api.IncrementalExportSpecification;
import io.stator.api.ListExportsRequest;
import io.stator.api.ListExportsResponse;
import io.stator.backup.ChangeHistory;
import io.stator.backup.OnDemandBackups;
import io.stator.backup.PointInTimeCopy;
import io.stator.backup.SourceTables;
import io.stator.capacity.ContributorInsightsUpdates;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.lease.JobLeases;
import io.stator.lease.Leases;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.schema.TableSettings.PointInTimeRecovery;
import io.stator.storage.ScanPage;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * ExportTableToPointInTime, DescribeExport and ListExports.
 *
 * <p>An export is checked and recorded IN_PROGRESS while the request waits (its directory, the
 * table, point-in-time recovery enabled, the time inside the recovery window, as DynamoDB
 * requires), and answered; then, on a thread of its own, the table's items as of the export time
 * are copied into a space of their own ({@link OnDemandBackups#copyAsOf}: the live table, each
 * item taken from its change history where it has one), and the copy is read page by page into
 * the export's files ({@link ExportFiles}), so what the export holds is the table at that one
 * time, whatever is written meanwhile. The record then says COMPLETED with the item count and the
 * billed size (the items' DynamoDB sizes), or FAILED with why.
 *
 * <p>Why a copy first rather than reading the live table and its history straight into the
 * files: an item the live read sees may change before the read of the history, and only the copy
 * takes each item once, from the record its change committed before. It costs one more write of
 * each item, as a point-in-time restore does.
 *
 * <p>A stop cuts an export short: it is recorded FAILED (ServerStopped; the copy it was reading
 * dropped then, not at another server's start), and the user exports again. Of several servers
 * on one storage, each export is held by the server that runs it ({@link JobLeases}), so a
 * server that starts leaves the exports another runs alone; an export whose server closed or
 * died is settled by the next server to start, or by a running one's housekeeping ({@link
 * #settleOrphans}) once its lease has expired. A server paused past the lease that resumes
 * after its export was settled stops before its next line ({@link JobLeases#holds}), or finds its
 * record settled at the end, and deletes the export's files, to which the FAILED record does not
 * point.
 */
public final class Exports implements AutoCloseable {
  static final String SPACE = "exports";
  private static final String NEW_IMAGE = "NEW_IMAGE";
  private static final String NEW_AND_OLD_IMAGES = "NEW_AND_OLD_IMAGES";
  private static final int PAGE = 100;
  private static final int LIST_PAGE = 25;

  private final Storage storage;
  private final OnDemandBackups backups;
  private final SourceTables tables;
  private final Clock clock;
  private final ExportDirectory directory;
  private final JobRecords records;
  private final JobLeases held;
  private final JobThreads exporters = new JobThreads("stator-export");

  public Exports(Storage storage, OnDemandBackups backups, SourceTables tables, Clock clock,
      ExportDirectory directory, Leases leases) {
    this.storage = storage;
    this.backups = backups;
    this.tables = tables;
    this.clock = clock;
    this.directory = directory;
    this.records = new JobRecords(storage, SPACE);
    this.held = new JobLeases(leases, "export");
    settleOrphans();
  }

  /**
   * Records FAILED the exports IN_PROGRESS that no server runs any more (their server stopped:
   * no lease, or an expired one): at start, and from the housekeeping.
   */
  public void settleOrphans() {
    records.settleOrphans(held, r -> {
      backups.forgetExportCopy(JobRecords.id(r));
      update(failed(decode(r), "ServerStopped", "The server stopped while the export ran;"
          + " export the table again."));
    });
  }

  public ExportTableToPointInTimeResponse export(ExportTableToPointInTimeRequest r) {
    Constraints c = new Constraints().notNull("tableArn", r.tableArn())
        .notNull("s3Bucket", r.s3Bucket());
    c.oneOf("exportFormat", r.exportFormat(), "DYNAMODB_JSON", "ION");
    c.oneOf("exportType", r.exportType(), "FULL_EXPORT", "INCREMENTAL_EXPORT");
    c.oneOf("s3SseAlgorithm", r.s3SseAlgorithm(), "AES256", "KMS");
    c.check();
    boolean incremental = "INCREMENTAL_EXPORT".equals(r.exportType());
    IncrementalExportSpecification spec = r.incrementalExportSpecification();
    if (incremental) {
      if (spec == null || spec.exportFromTime() == null) {
        throw DynamoDbException.validation("An INCREMENTAL_EXPORT needs"
            + " IncrementalExportSpecification with ExportFromTime.");
      }
      new Constraints().oneOf("incrementalExportSpecification.exportViewType",
          spec.exportViewType(), NEW_IMAGE, NEW_AND_OLD_IMAGES).check();
    } else if (spec != null) {
      throw DynamoDbException.validation("IncrementalExportSpecification is for ExportType"
          + " INCREMENTAL_EXPORT only.");
    }
    Path at = directory.resolve(r.s3Bucket(), r.s3Prefix());
    String fingerprint = JobRecords.fingerprint(r);
    Optional<Map<String, AttributeValue>> earlier = records.retried(
        r.clientToken(), fingerprint, clock.instant(), ErrorType.ExportConflictException, "export");
    if (earlier.isPresent()) {
      return new ExportTableToPointInTimeResponse(decode(earlier.get())); // a retry
    }
    String name = ContributorInsightsUpdates.tableNameOf(r.tableArn());
    TableDefinition table = table(name);
    PointInTimeRecovery pitr = table.settings().pointInTimeRecovery();
    if (!pitr.enabled()) {
      throw new DynamoDbException(ErrorType.PointInTimeRecoveryUnavailableException,
          "Point in time recovery is not enabled for table '" + name + "': enable it with"
              + " UpdateContinuousBackups; a table can be exported as of times after that.");
    }
    Instant now = clock.instant();
    ChangeHistory.Window window = ChangeHistory.window(pitr, now);
    Instant exportTime = null;
    if (incremental) {
      Instant to = spec.exportToTime() == null ? now : spec.exportToTime();
      spec = new IncrementalExportSpecification(spec.exportFromTime(), to,
          spec.exportViewType() == null ? NEW_AND_OLD_IMAGES : spec.exportViewType());
      checkPeriod(name, window, spec);
    } else {
      exportTime = r.exportTime() == null ? now : r.exportTime();
      if (!window.contains(exportTime)) {
        throw invalidTime("ExportTime " + exportTime, name, window);
      }
    }
    String tableArn = tables.describe(table).tableArn();
    String id = JobIds.newId(now);
    String keyPrefix = keyPrefix(r.s3Prefix()) + "AWSDynamoDB/" + id;
    ExportDescription started = new ExportDescription(tableArn + JobIds.EXPORT + id, IN_PROGRESS,
        now, null, keyPrefix + "/manifest-summary.json", tableArn, table.tableId(), exportTime,
        r.clientToken(), r.s3Bucket(), r.s3BucketOwner(), r.s3Prefix(),
        r.s3SseAlgorithm() == null ? "AES256" : r.s3SseAlgorithm(), r.s3SseKmsKeyId(), null,
        null, "ION".equals(r.exportFormat()) ? "ION" : "DYNAMODB_JSON", 0L, 0L,
        incremental ? "INCREMENTAL_EXPORT" : "FULL_EXPORT",
        incremental ? spec : null);
    held.start(id);
    try {
      record(started, fingerprint);
      exporters.execute(() -> {
        try {
          run(started, table, at.resolve("AWSDynamoDB").resolve(id), keyPrefix);
        } finally {
          held.end(id);
        }
      });
    } catch (RuntimeException e) {
      held.end(id);
      throw e;
    }
    return new ExportTableToPointInTimeResponse(started);
  }

  /**
   * An incremental export's period: from before to, at most a day long, inside the recovery
   * window. DynamoDB also asks for at least 15 minutes; Stator does not, so that a test or a
   * developer can export the last few seconds' changes.
   */
  private static void checkPeriod(String table, ChangeHistory.Window window,
      IncrementalExportSpecification spec) {
    Instant from = spec.exportFromTime();
    Instant to = spec.exportToTime();
    if (!from.isBefore(to)) {
      throw DynamoDbException.validation("ExportFromTime (" + from + ") must be before"
          + " ExportToTime (" + to + ").");
    }
    if (Duration.between(from, to).compareTo(Duration.ofDays(1)) > 0) {
      throw DynamoDbException.validation("The period from ExportFromTime (" + from + ") to"
          + " ExportToTime (" + to + ") is longer than 24 hours; export it in parts.");
    }
    if (!window.contains(from) || !window.contains(to)) {
      throw invalidTime("The period from " + from + " to " + to, table, window);
    }
  }

  private static DynamoDbException invalidTime(String what, String table,
      ChangeHistory.Window window) {
    return new DynamoDbException(ErrorType.InvalidExportTimeException, what + " is outside the"
        + " point in time recovery window of table '" + table + "': between "
        + window.earliest() + " and " + window.latest() + ".");
  }

  /** The S3 keys' prefix before {@code AWSDynamoDB/}: the export's prefix and a slash, if any. */
  private static String keyPrefix(String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      return "";
    }
    return prefix.endsWith("/") ? prefix : prefix + "/";
  }

  /** An export's counts as it goes: lines written and the DynamoDB size of their items. */
  private static final class Counts {
    long items;
    long bytes;
  }

  private void run(ExportDescription d, TableDefinition table, Path dir, String keyPrefix) {
    String id = JobIds.idOf(d.exportArn(), JobIds.EXPORT);
    Counts counts = new Counts();
    ExportFiles files = null;
    boolean recorded;
    try {
      files = new ExportFiles(dir, keyPrefix, d.exportFormat().equals("ION"));
      try (ExportFiles open = files) {
        if (d.incrementalExportSpecification() == null) {
          writeTable(d, table, open, counts);
        } else {
          writeChanges(d, table, open, counts);
        }
        if (Thread.currentThread().isInterrupted()) {
          return; // the engine closes: the next to settle it records the export FAILED
        }
        held.check(id);
        ExportDescription done = new ExportDescription(d.exportArn(), COMPLETED, d.startTime(),
            clock.instant(), d.exportManifest(), d.tableArn(), d.tableId(), d.exportTime(),
            d.clientToken(), d.s3Bucket(), d.s3BucketOwner(), d.s3Prefix(), d.s3SseAlgorithm(),
            d.s3SseKmsKeyId(), null, null, d.exportFormat(), counts.bytes, counts.items,
            d.exportType(), d.incrementalExportSpecification());
        open.finish(ManifestSummary.json(done, open.manifestFilesKey()));
        recorded = update(done);
      }
    } catch (JobLeases.Lost e) {
      recorded = false;
    } catch (IOException | RuntimeException e) {
      recorded = update(failed(d, e instanceof IOException ? "S3WriteFailed" : "UNKNOWN",
          "The export's files could not be written: " + e.getMessage()));
    }
    if (!recorded && files != null) {
      // Settled by another server while this one was paused past its lease: its record says
      // FAILED and points to no file, so none of this export's files may stay behind.
      try {
        files.delete();
      } catch (IOException e) {
        System.err.println("stator: the files of export " + id + ", settled by another server,"
            + " could not be deleted from " + dir + ": " + e);
      }
    }
  }

  /** A full export: the items of a copy of the table as of the export time. */
  private void writeTable(ExportDescription d, TableDefinition table, ExportFiles files,
      Counts counts) throws IOException {
    String id = JobIds.idOf(d.exportArn(), JobIds.EXPORT);
    try (PointInTimeCopy copy = backups.copyAsOf(table, d.exportTime(), id)) {
      for (StorageKey after = null; ; ) {
        ScanPage page = storage.scanPage(copy.space(), null, null, after, PAGE);
        for (StoredRecord record : page.records()) {
          held.check(id);
          Map<String, AttributeValue> item = ItemCodec.decode(record.value());
          files.write(ion(d) ? IonText.line(item) : DynamoDbJson.line(item));
          counts.items++;
          counts.bytes += ItemSize.of(item);
        }
        if (!page.more() || Thread.currentThread().isInterrupted()) {
          return;
        }
        after = page.records().get(page.records().size() - 1).key();
      }
    }
  }

  /**
   * An incremental export: a line for each item changed in the period, read from the change
   * history, with its keys, its image at the end (absent when deleted) and, for
   * NEW_AND_OLD_IMAGES, at the start (absent when made in the period).
   */
  private void writeChanges(ExportDescription d, TableDefinition table, ExportFiles files,
      Counts counts) throws IOException {
    IncrementalExportSpecification spec = d.incrementalExportSpecification();
    String id = JobIds.idOf(d.exportArn(), JobIds.EXPORT);
    boolean old = spec.exportViewType().equals(NEW_AND_OLD_IMAGES);
    boolean ion = ion(d);
    try {
      ChangeHistory.changesBetween(storage, table, spec.exportFromTime(), spec.exportToTime(),
          change -> {
            held.check(id);
            Map<String, AttributeValue> image =
                change.newImage() != null ? change.newImage() : change.oldImage();
            Map<String, AttributeValue> keys = new LinkedHashMap<>();
            keys.put(table.hashKey().name(), image.get(table.hashKey().name()));
            if (table.rangeKey() != null) {
              keys.put(table.rangeKey().name(), image.get(table.rangeKey().name()));
            }
            try {
              long micros = change.lastChangeMillis() * 1000;
              Map<String, AttributeValue> before = old ? change.oldImage() : null;
              files.write(ion ? IonText.changeLine(micros, keys, change.newImage(), before)
                  : DynamoDbJson.changeLine(micros, keys, change.newImage(), before));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
            counts.items++;
            counts.bytes += change.newImage() == null ? ItemSize.of(keys)
                : ItemSize.of(change.newImage());
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static boolean ion(ExportDescription d) {
    return d.exportFormat().equals("ION");
  }

  private ExportDescription failed(ExportDescription d, String code, String message) {
    return new ExportDescription(d.exportArn(), FAILED, d.startTime(), clock.instant(),
        d.exportManifest(), d.tableArn(), d.tableId(), d.exportTime(), d.clientToken(),
        d.s3Bucket(), d.s3BucketOwner(), d.s3Prefix(), d.s3SseAlgorithm(), d.s3SseKmsKeyId(),
        code, message, d.exportFormat(), d.billedSizeBytes(), d.itemCount(), d.exportType(),
        d.incrementalExportSpecification());
  }

  public DescribeExportResponse describe(DescribeExportRequest r) {
    new Constraints().notNull("exportArn", r.exportArn()).check();
    return new DescribeExportResponse(records.byArn(r.exportArn(), JobIds.EXPORT)
        .map(Exports::decode).orElseThrow(() -> new DynamoDbException(
            ErrorType.ExportNotFoundException, "Export not found: " + r.exportArn())));
  }

  public ListExportsResponse list(ListExportsRequest r) {
    Constraints c = new Constraints();
    c.atLeast("maxResults", r.maxResults(), 1).atMost("maxResults", r.maxResults(), LIST_PAGE);
    c.check();
    JobRecords.Page<ExportSummary> page = records.page(JobIds.checkToken(r.nextToken()),
        r.tableArn(), r.maxResults() == null ? LIST_PAGE : r.maxResults(), m -> {
          ExportDescription d = decode(m);
          return new ExportSummary(d.exportArn(), d.exportStatus(), d.exportType());
        });
    return new ListExportsResponse(page.items(), page.lastId());
  }

  /**
   * Records how an export IN_PROGRESS ended, unless it is no longer IN_PROGRESS: another server
   * settled it (this one paused past its lease), and what that recorded stands: false then.
   */
  private boolean update(ExportDescription d) {
    return records.replaceInProgress(JobIds.idOf(d.exportArn(), JobIds.EXPORT),
        now -> fields(d, JobRecords.s(now, "fingerprint")));
  }

  /** Records a new export, with the fingerprint of the request that made it. */
  private void record(ExportDescription d, String fingerprint) {
    records.put(JobIds.idOf(d.exportArn(), JobIds.EXPORT), fields(d, fingerprint));
  }

  private static Map<String, AttributeValue> fields(ExportDescription d, String fingerprint) {
    return new JobRecords.Fields()
        .s("fingerprint", fingerprint)
        .s("arn", d.exportArn()).s("status", d.exportStatus()).t("start", d.startTime())
        .t("end", d.endTime()).s("manifest", d.exportManifest()).s("tableArn", d.tableArn())
        .s("tableId", d.tableId()).t("time", d.exportTime()).s("token", d.clientToken())
        .s("bucket", d.s3Bucket()).s("owner", d.s3BucketOwner()).s("prefix", d.s3Prefix())
        .s("sse", d.s3SseAlgorithm()).s("kms", d.s3SseKmsKeyId())
        .s("failureCode", d.failureCode()).s("failureMessage", d.failureMessage())
        .s("format", d.exportFormat()).n("bytes", d.billedSizeBytes())
        .n("items", d.itemCount()).s("type", d.exportType())
        .t("from", spec(d).exportFromTime()).t("to", spec(d).exportToTime())
        .s("view", spec(d).exportViewType()).map;
  }

  private static IncrementalExportSpecification spec(ExportDescription d) {
    return d.incrementalExportSpecification() != null ? d.incrementalExportSpecification()
        : new IncrementalExportSpecification(null, null, null);
  }

  private static ExportDescription decode(Map<String, AttributeValue> m) {
    return new ExportDescription(JobRecords.s(m, "arn"), JobRecords.s(m, "status"),
        JobRecords.t(m, "start"), JobRecords.t(m, "end"), JobRecords.s(m, "manifest"),
        JobRecords.s(m, "tableArn"), JobRecords.s(m, "tableId"), JobRecords.t(m, "time"),
        JobRecords.s(m, "token"), JobRecords.s(m, "bucket"), JobRecords.s(m, "owner"),
        JobRecords.s(m, "prefix"), JobRecords.s(m, "sse"), JobRecords.s(m, "kms"),
        JobRecords.s(m, "failureCode"), JobRecords.s(m, "failureMessage"),
        JobRecords.s(m, "format"), JobRecords.n(m, "bytes"), JobRecords.n(m, "items"),
        JobRecords.s(m, "type"), m.containsKey("view") ? new IncrementalExportSpecification(
            JobRecords.t(m, "from"), JobRecords.t(m, "to"), JobRecords.s(m, "view")) : null);
  }

  /** The table to export; TableNotFoundException, as DynamoDB's exports say, when none. */
  private TableDefinition table(String name) {
    try {
      return tables.definition(name);
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        throw new DynamoDbException(ErrorType.TableNotFoundException, "Table not found: " + name);
      }
      throw e;
    }
  }

  /**
   * Stops the exports in progress and gives their leases up, so that the next server to settle
   * them (another's housekeeping, or this one's next start) records them FAILED.
   */
  @Override
  public void close() {
    exporters.close();
    held.close();
  }
}
