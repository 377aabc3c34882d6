package io.stator.export;

import io.stator.api.ExportDescription;
import io.stator.api.ExportFormat;
import io.stator.item.ItemSize;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * An export's files written from items handed to it one at a time, in the layout and the
 * {@code DYNAMODB_JSON} or {@code ION} lines of ExportTableToPointInTime ({@link ExportFiles}):
 * {@code <directory>/AWSDynamoDB/<ExportId>/data/*.json.gz} (or {@code *.ion.gz}), then the
 * manifests. For an export made
 * outside the engine, by a client that reads the table itself ({@code stator export}), so that
 * its files are those an export writes and ImportTable reads.
 *
 * <p>{@link #write} may be called from several threads (one per scan segment, say); the lines go
 * to the files one at a time.
 */
public final class ExportWriter implements AutoCloseable {
  private final ExportFiles files;
  private final Path exportDirectory;
  private final String keyPrefix;
  private final String exportArn;
  private final String tableArn;
  private final String tableId;
  private final Instant started;
  private final ExportFormat format;
  private long items;
  private long bytes;

  private ExportWriter(Path exportDirectory, String keyPrefix, String exportArn,
      String tableArn, String tableId, Instant started, ExportFormat format) throws IOException {
    this.files = new ExportFiles(exportDirectory, keyPrefix, format == ExportFormat.ION);
    this.format = format;
    this.exportDirectory = exportDirectory;
    this.keyPrefix = keyPrefix;
    this.exportArn = exportArn;
    this.tableArn = tableArn;
    this.tableId = tableId;
    this.started = started;
  }

  /**
   * A new export of the table {@code tableArn} (its id {@code tableId}, if known) under {@code
   * directory}, started {@code now}, in {@code format}: its files go to {@code
   * directory/AWSDynamoDB/<ExportId>}.
   */
  public static ExportWriter create(Path directory, String tableArn, String tableId,
      Instant now, ExportFormat format) throws IOException {
    String id = JobIds.newId(now);
    String keyPrefix = "AWSDynamoDB/" + id;
    return new ExportWriter(directory.resolve("AWSDynamoDB").resolve(id), keyPrefix,
        tableArn + JobIds.EXPORT + id, tableArn, tableId, now, format);
  }

  /** Writes one item's line. */
  public synchronized void write(Map<String, AttributeValue> item) throws IOException {
    files.write(format == ExportFormat.ION ? IonText.line(item) : DynamoDbJson.line(item));
    items++;
    bytes += ItemSize.of(item);
  }

  /** The items written so far. */
  public synchronized long itemCount() {
    return items;
  }

  /** The DynamoDB size of the items written so far, as an export bills it. */
  public synchronized long billedSizeBytes() {
    return bytes;
  }

  /** The export's own directory, {@code <directory>/AWSDynamoDB/<ExportId>}. */
  public Path exportDirectory() {
    return exportDirectory;
  }

  /**
   * Closes the last data file and writes {@code manifest-files.json} and, last, {@code
   * manifest-summary.json}; answers the export's description, COMPLETED at {@code now}.
   */
  public synchronized ExportDescription finish(Instant now) throws IOException {
    ExportDescription done = new ExportDescription(exportArn, JobRecords.COMPLETED, started, now,
        keyPrefix + "/manifest-summary.json", tableArn, tableId, started, null, null, null, null,
        null, null, null, null, format.name(), bytes, items, "FULL_EXPORT", null);
    files.finish(ManifestSummary.json(done, files.manifestFilesKey()));
    return done;
  }

  @Override
  public synchronized void close() throws IOException {
    files.close();
  }
}
