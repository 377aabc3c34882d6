package io.stator.export;

import static io.stator.export.JobRecords.COMPLETED;
import static io.stator.export.JobRecords.FAILED;
import static io.stator.export.JobRecords.IN_PROGRESS;

import io.stator.api.DescribeImportRequest;
import io.stator.api.DescribeImportResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ImportSummary;
import io.stator.api.ImportTableDescription;
import io.stator.api.ImportTableRequest;
import io.stator.api.ImportTableResponse;
import io.stator.api.InputFormatOptions;
import io.stator.api.ListImportsRequest;
import io.stator.api.ListImportsResponse;
import io.stator.api.S3BucketSource;
import io.stator.api.TableCreationParameters;
import io.stator.api.TableDescription;
import io.stator.backup.SourceTables;
import io.stator.lease.JobLeases;
import io.stator.lease.Leases;
import io.stator.schema.Constraints;
import io.stator.storage.Storage;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * ImportTable, DescribeImport and ListImports.
 *
 * <p>ImportTable checks the request and its files while the request waits (the format, the
 * compression, that some file's key starts with the prefix), makes the table with the engine's
 * CreateTable from the TableCreationParameters, CREATING, records the import IN_PROGRESS and
 * answers. Then, on a thread of its own, each file is read line by line, decompressed as it is
 * read, and each line's item is put through the engine's write path ({@link
 * SourceTables#putImported}), refused where PutItem would refuse it, so the indexes are written
 * as any write writes them and nothing of a file is held in memory. A line that is no item (bad
 * JSON, a CSV row of the wrong width, a key missing or of the wrong type, an item too large) is
 * counted in ErrorCount, named on the server's error output (the first {@value #LOGGED_ERRORS}),
 * and skipped, as DynamoDB counts and logs it; the import goes on. The record says how far it is
 * every {@value #PROGRESS_EVERY} lines; at the end the table turns ACTIVE and the import
 * COMPLETED.
 *
 * <p>Where DynamoDB fails an import whose source has no object, Stator refuses the request
 * (ValidationException) and makes no table, which tells the user at once. A stop cuts an import
 * short: it is recorded FAILED (ServerStopped) and its table turned ACTIVE with the items it has.
 * Of several servers on one storage, each import is held by the server that runs it ({@link
 * JobLeases}), so a server that starts leaves the imports another runs alone; an import whose
 * server closed or died is settled by the next server to start, or by a running one's
 * housekeeping ({@link #settleOrphans}) once its lease has expired. A server paused past the
 * lease that resumes after its import was settled stops before its next item ({@link
 * JobLeases#holds}); the items written before stay in the table, as the settled record says.
 */
public final class Imports implements AutoCloseable {
  static final String SPACE = "imports";
  private static final int LIST_PAGE = 25;
  private static final int PROGRESS_EVERY = 10_000;
  private static final int LOGGED_ERRORS = 10;
  /** A NextToken's length: ListImports' model asks for at least 112 hex digits. */
  private static final int TOKEN_HEX = 112;

  private final SourceTables tables;
  private final Clock clock;
  private final ExportDirectory directory;
  private final JobRecords records;
  private final JobLeases held;
  private final JobThreads importers = new JobThreads("stator-import");

  public Imports(Storage storage, SourceTables tables, Clock clock, ExportDirectory directory,
      Leases leases) {
    this.tables = tables;
    this.clock = clock;
    this.directory = directory;
    this.records = new JobRecords(storage, SPACE);
    this.held = new JobLeases(leases, "import");
    settleOrphans();
  }

  /**
   * Records FAILED the imports IN_PROGRESS that no server runs any more (their server stopped:
   * no lease, or an expired one), their tables ACTIVE: at start, and from the housekeeping.
   */
  public void settleOrphans() {
    records.settleOrphans(held, r -> {
      ImportTableDescription d = ImportRecords.decode(r);
      activate(d.tableCreationParameters().tableName());
      update(ImportRecords.ended(d, FAILED, clock.instant(), d.processedSizeBytes(),
          d.processedItemCount(), d.importedItemCount(), d.errorCount(), "ServerStopped",
          "The server stopped while the import ran; the table holds the items imported"
              + " before."));
    });
  }

  public ImportTableResponse importTable(ImportTableRequest r) {
    Constraints c = new Constraints().notNull("s3BucketSource", r.s3BucketSource())
        .notNull("inputFormat", r.inputFormat())
        .notNull("tableCreationParameters", r.tableCreationParameters());
    c.oneOf("inputFormat", r.inputFormat(), "DYNAMODB_JSON", "ION", "CSV");
    c.oneOf("inputCompressionType", r.inputCompressionType(), "GZIP", "ZSTD", "NONE");
    if (r.s3BucketSource() != null) {
      c.notNull("s3BucketSource.s3Bucket", r.s3BucketSource().s3Bucket());
    }
    c.check();
    if ("ZSTD".equals(r.inputCompressionType())) {
      ZstdInput.check();
    }
    InputFormatOptions options = r.inputFormatOptions();
    boolean csvOptions = options != null
        && (options.csvDelimiter() != null || options.csvHeaderList() != null);
    if (csvOptions && !r.inputFormat().equals("CSV")) {
      throw DynamoDbException.validation("InputFormatOptions.Csv is for InputFormat CSV only.");
    }
    S3BucketSource source = r.s3BucketSource();
    directory.resolve(source.s3Bucket(), source.s3KeyPrefix()); // refuses a path out of it
    String fingerprint = JobRecords.fingerprint(r);
    Optional<Map<String, AttributeValue>> earlier = records.retried(
        r.clientToken(), fingerprint, clock.instant(), ErrorType.ImportConflictException, "import");
    if (earlier.isPresent()) {
      return new ImportTableResponse(ImportRecords.decode(earlier.get())); // a retry
    }
    Path bucket = directory.bucket(source.s3Bucket());
    List<Path> files = ImportFiles.matching(bucket, source.s3KeyPrefix());
    if (files.isEmpty()) {
      throw DynamoDbException.validation("No file in S3Bucket '" + source.s3Bucket()
          + "' has a key starting with '" + (source.s3KeyPrefix() == null ? ""
              : source.s3KeyPrefix()) + "': nothing to import.");
    }
    TableCreationParameters params = r.tableCreationParameters();
    Instant now = clock.instant();
    String id = JobIds.newId(now);
    // Held before the table is made: a CREATING table with no import record and no lease is
    // nothing another server's settling looks at, but a record without a lease would be.
    held.start(id);
    try {
      return start(r, id, now, bucket, files, fingerprint);
    } catch (RuntimeException e) {
      held.end(id);
      throw e;
    }
  }

  private ImportTableResponse start(ImportTableRequest r, String id, Instant now, Path bucket,
      List<Path> files, String fingerprint) {
    TableCreationParameters params = r.tableCreationParameters();
    S3BucketSource source = r.s3BucketSource();
    InputFormatOptions options = r.inputFormatOptions();
    TableDescription table = tables.create(params.createTableRequest(),
        t -> t.withStatus("CREATING"));
    ImportTableDescription started = new ImportTableDescription(
        table.tableArn() + JobIds.IMPORT + id, IN_PROGRESS, table.tableArn(), table.tableId(),
        r.clientToken(), source, 0L, r.inputFormat(), options,
        r.inputCompressionType() == null ? "NONE" : r.inputCompressionType(), params, now, null,
        0L, 0L, 0L, null, null);
    records.put(JobIds.idOf(started.importArn(), JobIds.IMPORT),
        ImportRecords.encode(started, fingerprint));
    importers.execute(() -> {
      try {
        run(started, bucket, files);
      } finally {
        held.end(id);
      }
    });
    return new ImportTableResponse(started);
  }

  /** The counts of an import as it goes. */
  private static final class Counts {
    long bytes;
    long processed;
    long imported;
    long errors;
  }

  private void run(ImportTableDescription d, Path bucket, List<Path> files) {
    String id = JobIds.idOf(d.importArn(), JobIds.IMPORT);
    String table = d.tableCreationParameters().tableName();
    ImportReader reader = new ImportReader(d.inputFormat(), d.inputCompressionType(),
        d.inputFormatOptions(), d.tableCreationParameters().attributeDefinitions());
    Counts counts = new Counts();
    try {
      for (Path file : files) {
        String key = ImportFiles.key(bucket, file);
        boolean whole = reader.read(Files.newInputStream(file), new ImportReader.Lines() {
          @Override
          public void item(Map<String, AttributeValue> item, long number) {
            held.check(id);
            tables.putImported(table, item);
            counts.imported++;
            processed(d, counts);
          }

          @Override
          public void error(long number, RuntimeException why) {
            if (counts.errors++ < LOGGED_ERRORS) {
              System.err.println("stator: import " + d.importArn() + ": " + key + " line "
                  + number + " skipped: " + message(why));
            }
            processed(d, counts);
          }
        });
        if (!whole) {
          return; // the engine closes: the next to settle it records the import FAILED
        }
        counts.bytes += Files.size(file);
      }
      held.check(id);
      activate(table);
      update(ImportRecords.ended(d, COMPLETED, clock.instant(), counts.bytes, counts.processed,
          counts.imported, counts.errors, null, null));
    } catch (JobLeases.Lost e) {
      // Settled by another server while this one was paused past its lease: the table is
      // ACTIVE and the record FAILED, with the items written before, which the table keeps.
    } catch (IOException | RuntimeException e) {
      activate(table);
      update(ImportRecords.ended(d, FAILED, clock.instant(), counts.bytes, counts.processed,
          counts.imported, counts.errors, e instanceof IOException ? "S3ReadFailed" : "UNKNOWN",
          "The import stopped: " + message(e)));
    }
  }

  /** Counts a line read and records the progress every {@value #PROGRESS_EVERY} lines. */
  private void processed(ImportTableDescription d, Counts counts) {
    if (++counts.processed % PROGRESS_EVERY == 0) {
      update(ImportRecords.ended(d, IN_PROGRESS, null, counts.bytes, counts.processed,
          counts.imported, counts.errors, null, null));
    }
  }

  private static String message(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private void activate(String table) {
    try {
      tables.change(table, t -> t.creating() ? t.withStatus("ACTIVE") : t);
    } catch (DynamoDbException gone) {
      // deleted while it was imported
    }
  }

  public DescribeImportResponse describe(DescribeImportRequest r) {
    new Constraints().notNull("importArn", r.importArn()).check();
    return new DescribeImportResponse(records.byArn(r.importArn(), JobIds.IMPORT)
        .map(ImportRecords::decode).orElseThrow(() -> new DynamoDbException(
            ErrorType.ImportNotFoundException, "Import not found: " + r.importArn())));
  }

  public ListImportsResponse list(ListImportsRequest r) {
    Constraints c = new Constraints();
    c.atLeast("pageSize", r.pageSize(), 1).atMost("pageSize", r.pageSize(), LIST_PAGE);
    c.check();
    JobRecords.Page<ImportSummary> page = records.page(
        JobIds.checkToken(fromToken(r.nextToken())), r.tableArn(),
        r.pageSize() == null ? LIST_PAGE : r.pageSize(), m -> {
          ImportTableDescription d = ImportRecords.decode(m);
          return new ImportSummary(d.importArn(), d.importStatus(), d.tableArn(),
              d.s3BucketSource(), d.inputFormat(), d.startTime(), d.endTime());
        });
    return new ListImportsResponse(page.items(),
        page.lastId() == null ? null : token(page.lastId()));
  }

  /** The id as ListImports' NextToken: its hex, padded with zero bytes to the model's length. */
  private static String token(String id) {
    StringBuilder hex = new StringBuilder();
    for (byte b : id.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      hex.append(String.format("%02x", b));
    }
    while (hex.length() < TOKEN_HEX) {
      hex.append('0');
    }
    return hex.toString();
  }

  private static String fromToken(String token) {
    if (token == null) {
      return null;
    }
    StringBuilder id = new StringBuilder();
    for (int i = 0; i + 1 < token.length(); i += 2) {
      int b = Character.digit(token.charAt(i), 16) * 16 + Character.digit(token.charAt(i + 1), 16);
      if (b <= 0) {
        break; // the padding, or a digit that is no hex (refused by checkToken as no id)
      }
      id.append((char) b);
    }
    return id.toString();
  }

  /**
   * Records an import's progress or end, unless it is no longer IN_PROGRESS: another server
   * settled it (this one paused past its lease), and what that recorded stands: false then.
   */
  private boolean update(ImportTableDescription d) {
    return records.replaceInProgress(JobIds.idOf(d.importArn(), JobIds.IMPORT),
        now -> ImportRecords.encode(d, JobRecords.s(now, "fingerprint")));
  }

  /**
   * Stops the imports in progress and gives their leases up, so that the next server to settle
   * them (another's housekeeping, or this one's next start) records them FAILED.
   */
  @Override
  public void close() {
    importers.close();
    held.close();
  }
}
