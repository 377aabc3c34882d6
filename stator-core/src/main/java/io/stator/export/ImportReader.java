package io.stator.export;

import io.stator.api.AttributeDefinition;
import io.stator.api.InputFormatOptions;
import io.stator.lease.JobLeases;
import io.stator.value.AttributeValue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads the items of one import file as ImportTable reads them: decompressed as it is read
 * ({@code InputCompressionType}), a line at a time in its {@code InputFormat} ({@code
 * DYNAMODB_JSON} or {@code ION} item lines, or {@code CSV} rows under a header line or {@code
 * HeaderList}), each
 * line handed on as an item or as an error of that line; blank lines are skipped. Nothing of a
 * file is held in memory beyond its line.
 *
 * <p>The engine's ImportTable and the {@code stator import} command read files through it, so
 * both take the same files the same way.
 */
public final class ImportReader {
  /** What is made of each line of a file. */
  public interface Lines {
    /**
     * The item of line {@code number} (from 1); a RuntimeException it throws makes the line an
     * error, given to {@link #error}.
     */
    void item(Map<String, AttributeValue> item, long number);

    /** Line {@code number} is no item, for the reason given. */
    void error(long number, RuntimeException why);
  }

  private final boolean csv;
  private final boolean ion;
  private final String compression;
  private final List<String> givenHeader;
  private final CsvRows rows;

  /**
   * @param inputFormat DYNAMODB_JSON, ION (an item a line, as DynamoDB's ION exports) or CSV
   * @param compression GZIP, ZSTD, or NONE (or null) for none
   * @param options the CSV options, or null
   * @param definitions the table's attribute definitions, which type a CSV row's cells
   */
  public ImportReader(String inputFormat, String compression, InputFormatOptions options,
      List<AttributeDefinition> definitions) {
    this.csv = "CSV".equals(inputFormat);
    this.ion = "ION".equals(inputFormat);
    this.compression = compression == null ? "NONE" : compression;
    this.givenHeader = options == null ? null : options.csvHeaderList();
    this.rows = csv ? new CsvRows(options == null ? null : options.csvDelimiter(), definitions)
        : null;
  }

  /**
   * Reads the file whose bytes {@code in} gives (and closes it), line by line into {@code lines}.
   * Returns false when it stopped because the thread was interrupted, true at the file's end.
   */
  public boolean read(InputStream in, Lines lines) throws IOException {
    try (BufferedReader text = new BufferedReader(
        new InputStreamReader(decompressed(in), StandardCharsets.UTF_8), 1 << 16)) {
      List<String> header = givenHeader;
      long number = 0;
      for (String line; (line = text.readLine()) != null; ) {
        number++;
        if (Thread.currentThread().isInterrupted()) {
          return false;
        }
        if (line.isBlank()) {
          continue;
        }
        if (csv && header == null) {
          header = rows.cells(line);
          continue;
        }
        Map<String, AttributeValue> item;
        try {
          item = csv ? rows.item(header, line)
              : ion ? IonText.item(line) : DynamoDbJson.item(line);
        } catch (RuntimeException bad) {
          lines.error(number, bad);
          continue;
        }
        try {
          lines.item(item, number);
        } catch (JobLeases.Lost stop) {
          throw stop; // the import is no longer this server's: no line is at fault
        } catch (RuntimeException refused) {
          lines.error(number, refused);
        }
      }
      return true;
    }
  }

  private InputStream decompressed(InputStream in) throws IOException {
    try {
      return switch (compression) {
        case "GZIP" -> new GZIPInputStream(in, 1 << 16);
        case "ZSTD" -> ZstdInput.open(in);
        default -> in;
      };
    } catch (IOException | RuntimeException notCompressed) {
      in.close();
      throw notCompressed;
    }
  }
}
