package io.stator.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * The files of one export, laid out as DynamoDB lays out its objects under {@code
 * <prefix>/AWSDynamoDB/<ExportId>/}: {@code data/<name>.json.gz} (or {@code .ion.gz}), gzip'd lines of one item each
 * (a new file every {@value #ITEMS_PER_FILE} items, so no file grows without bound), then {@code
 * manifest-files.json} (a line per data file: its item count, MD5 and key) and {@code
 * manifest-summary.json}, written last, so that its presence says the export is whole. Lines are
 * written as the items are read: nothing of the table is held in memory.
 */
final class ExportFiles implements AutoCloseable {
  static final int ITEMS_PER_FILE = 500_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A data file written, as manifest-files.json lists it. */
  record DataFile(String key, long itemCount, byte[] md5) {}

  private final Path directory;
  private final String keyPrefix;
  private final boolean ion;
  private final List<DataFile> written = new ArrayList<>();
  private Writer out;
  private MessageDigest md5;
  private String currentKey;
  private long inCurrent;

  /**
   * @param directory the export's directory, {@code .../AWSDynamoDB/<ExportId>}
   * @param keyPrefix its key in the bucket, as the manifests name files by
   * @param ion whether the lines are Ion text ({@code data/<name>.ion.gz}, each file opening
   *     with Ion's version marker) rather than DYNAMODB_JSON
   */
  ExportFiles(Path directory, String keyPrefix, boolean ion) throws IOException {
    this.directory = directory;
    this.keyPrefix = keyPrefix;
    this.ion = ion;
    Files.createDirectories(directory.resolve("data"));
  }

  /** Writes one line (an item, or an incremental export's change). */
  void write(String line) throws IOException {
    if (out == null) {
      open();
    }
    out.write(line);
    out.write('\n');
    if (++inCurrent == ITEMS_PER_FILE) {
      closeCurrent();
    }
  }

  private void open() throws IOException {
    byte[] name = new byte[12];
    RANDOM.nextBytes(name);
    String file = HexFormat.of().formatHex(name) + (ion ? ".ion.gz" : ".json.gz");
    currentKey = keyPrefix + "/data/" + file;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has MD5", e);
    }
    OutputStream file0 = new DigestOutputStream(
        Files.newOutputStream(directory.resolve("data").resolve(file)), md5);
    out = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(file0, 1 << 16),
        StandardCharsets.UTF_8), 1 << 16);
    if (ion) {
      out.write(IonText.VERSION_MARKER + " ");
    }
    inCurrent = 0;
  }

  private void closeCurrent() throws IOException {
    if (out != null) {
      out.close();
      written.add(new DataFile(currentKey, inCurrent, md5.digest()));
      out = null;
    }
  }

  /** Closes the last data file and writes the manifests; {@code summary} is its JSON. */
  void finish(String summary) throws IOException {
    closeCurrent();
    StringBuilder files = new StringBuilder();
    for (DataFile f : written) {
      files.append("{\"itemCount\":").append(f.itemCount()).append(",\"md5Checksum\":");
      DynamoDbJson.string(files, Base64.getEncoder().encodeToString(f.md5()));
      files.append(",\"etag\":");
      DynamoDbJson.string(files, HexFormat.of().formatHex(f.md5()));
      files.append(",\"dataFileS3Key\":");
      DynamoDbJson.string(files, f.key());
      files.append("}\n");
    }
    Files.writeString(directory.resolve("manifest-files.json"), files);
    Files.writeString(directory.resolve("manifest-summary.json"), summary);
  }

  String manifestFilesKey() {
    return keyPrefix + "/manifest-files.json";
  }

  /**
   * Deletes every file of the export, and its directory (the export's alone, named by its id):
   * for an export that another server settled while this one wrote it.
   */
  void delete() throws IOException {
    close();
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> all = Files.walk(directory)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
  }
}
