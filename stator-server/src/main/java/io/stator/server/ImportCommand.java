package io.stator.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.api.InputFormatOptions;
import io.stator.api.AttributeDefinition;
import io.stator.export.ImportReader;
import io.stator.item.ItemSize;
import io.stator.server.wire.ItemJson;
import io.stator.value.AttributeValue;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stator import --from FILE --table T}: the items of files in ImportTable's formats
 * written into a table of a running server with BatchWriteItem, through the API alone.
 *
 * <p>{@code --from} is a file, or a directory whose files are all read (an export's directory
 * among them: its manifests are left out). Each file is read as ImportTable reads it ({@link
 * ImportReader}): its format is {@code --format}, else CSV for a name with {@code .csv}, ION for
 * one with {@code .ion}, else DYNAMODB_JSON; its compression {@code --compression}, else GZIP for a name ending {@code .gz},
 * ZSTD for {@code .zst}.
 * The table must exist, unless {@code --key} names its keys: then it is made (on-demand) when
 * missing, and an existing table must have those keys.
 *
 * <p>Lines are read and put in batches of 25 while {@code --writers} threads write the batches
 * before them (a few batches queued at most, so no file is held in memory), each retrying its
 * UnprocessedItems with backoff. A line that is no item, or an item the server refuses (a batch
 * refused is written again item by item, to find which), is skipped, named on the error output
 * (the first ten) and counted in the summary, as ImportTable counts it; the exit status is then
 * 2. A failure that stops the import (no server, no table, a file that cannot be read) is 1.
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Import DYNAMODB_JSON, ION or CSV files (gzip'd, zstd'd or not) into a table of a"
        + " running server, with BatchWriteItem.")
final class ImportCommand implements Callable<Integer> {
  private static final int BATCH = 25;
  private static final int ATTEMPTS = 12;
  private static final int SHOWN_SKIPS = 10;

  @Spec CommandSpec spec;

  @Option(names = "--from", required = true,
      description = "A file, or a directory whose files are all imported (an export's).")
  Path from;

  @Option(names = "--table", required = true, description = "The table to write to.")
  String table;

  @Option(names = "--key", split = ",", paramLabel = "NAME:TYPE",
      description = "The table's partition key, then its sort key, if any (TYPE S, N or B):"
          + " the table is made when missing, and must have these keys when it exists.")
  List<String> key;

  @Option(names = "--format",
      description = "DYNAMODB_JSON, ION or CSV (default: by file name: .csv, .ion, else JSON).")
  String format;

  @Option(names = "--compression",
      description = "GZIP, ZSTD or NONE (default: GZIP for names ending .gz, ZSTD for .zst).")
  String compression;

  @Option(names = "--csv-delimiter", description = "A CSV file's delimiter (default: ,).")
  String csvDelimiter;

  @Option(names = "--csv-header", split = ",",
      description = "A CSV file's attribute names, when its first line is no header.")
  List<String> csvHeader;

  @Option(names = "--writers", defaultValue = "4",
      description = "BatchWriteItem calls at once (default: ${DEFAULT-VALUE}).")
  int writers;

  @Mixin TransferOptions server;

  /** Items to write, and where each was read ("file line n"). */
  private record Batch(List<Map<String, AttributeValue>> items, List<String> lines) {}

  private static final Batch END = new Batch(List.of(), List.of());

  private final AtomicLong skipped = new AtomicLong();
  /** The DynamoDB size of the items read, as an export of them would bill it. */
  private final AtomicLong itemBytes = new AtomicLong();
  private volatile Exception failure;
  private PrintWriter err;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    err = spec.commandLine().getErr();
    try {
      check();
      TransferProgress.Mode mode = server.mode();
      List<Path> files = files();
      DynamoDbApi api = server.api();
      TableInfo info = TableInfo.ready(api, table, keySchema());
      long total = 0;
      for (Path f : files) {
        total += Files.size(f);
      }
      try (TransferProgress shown = new TransferProgress(err, mode, "imported")) {
        shown.totalBytes(total);
        run(api, info, files, shown);
        shown.close();
        if (failure != null) {
          throw failure;
        }
        out.println("Imported " + String.format(Locale.ROOT, "%,d", shown.items.get())
            + " items (" + TransferProgress.megabytes(itemBytes.get()) + ") into table " + table
            + " from " + files.size() + (files.size() == 1 ? " file (" : " files (")
            + TransferProgress.megabytes(total) + " read) " + shown.rates(itemBytes.get())
            + (skipped.get() == 0 ? ""
                : String.format(Locale.ROOT, "; %,d lines skipped", skipped.get())));
        out.flush();
      }
      return skipped.get() == 0 ? 0 : 2;
    } catch (DynamoDbApi.ApiError | IllegalArgumentException e) {
      err.println("stator: " + e.getMessage());
    } catch (Exception e) {
      err.println("stator: import into " + table + " failed: " + (e.getMessage() != null
          ? e.getMessage() : e.getClass().getSimpleName()));
    }
    err.flush();
    return 1;
  }

  private void check() {
    if (format != null && !List.of("DYNAMODB_JSON", "ION", "CSV").contains(format)) {
      throw new IllegalArgumentException("--format is DYNAMODB_JSON, ION or CSV, not " + format);
    }
    if (compression != null && !List.of("GZIP", "ZSTD", "NONE").contains(compression)) {
      throw new IllegalArgumentException("--compression is GZIP, ZSTD or NONE, not "
          + compression);
    }
    if (csvDelimiter != null && csvDelimiter.length() != 1) {
      throw new IllegalArgumentException("--csv-delimiter is one character");
    }
    if (writers < 1 || writers > 64) {
      throw new IllegalArgumentException("--writers must be between 1 and 64");
    }
  }

  /** The files to read: {@code --from}, or the files under it, sorted, but manifests. */
  private List<Path> files() throws IOException {
    if (Files.isRegularFile(from)) {
      return List.of(from);
    }
    if (!Files.isDirectory(from)) {
      throw new IllegalArgumentException("--from " + from + ": no such file or directory");
    }
    List<Path> files;
    try (Stream<Path> all = Files.walk(from)) {
      files = all.filter(Files::isRegularFile).filter(f -> {
        String name = f.getFileName().toString();
        return !name.startsWith("manifest-") && !name.startsWith("_") && !name.startsWith(".");
      }).sorted().toList();
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("--from " + from + ": the directory has no file to"
          + " import");
    }
    return files;
  }

  private String formatOf(Path file) {
    if (format != null) {
      return format;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.contains(".csv") ? "CSV" : name.contains(".ion") ? "ION" : "DYNAMODB_JSON";
  }

  private String compressionOf(Path file) {
    if (compression != null) {
      return compression;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".gz") ? "GZIP"
        : name.endsWith(".zst") || name.endsWith(".zstd") ? "ZSTD" : "NONE";
  }

  /** Reads the files into batches here while the writers write them. */
  private void run(DynamoDbApi api, TableInfo info, List<Path> files, TransferProgress shown)
      throws IOException, InterruptedException {
    BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(writers * 2);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      Thread t = new Thread(() -> write(api, queue, shown), "stator-import-writer");
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    InputFormatOptions options = csvDelimiter == null && csvHeader == null ? null
        : new InputFormatOptions(csvDelimiter, csvHeader);
    try {
      for (Path file : files) {
        ImportReader reader = new ImportReader(formatOf(file), compressionOf(file), options,
            info.attributeDefinitions());
        Batch[] batch = {newBatch()};
        boolean whole = reader.read(counted(Files.newInputStream(file), shown.bytes),
            new ImportReader.Lines() {
              @Override
              public void item(Map<String, AttributeValue> item, long number) {
                batch[0].items().add(item);
                itemBytes.addAndGet(ItemSize.of(item));
                batch[0].lines().add(file + " line " + number);
                if (batch[0].items().size() == BATCH) {
                  put(queue, batch[0]);
                  batch[0] = newBatch();
                }
              }

              @Override
              public void error(long number, RuntimeException why) {
                if (why instanceof Stop) {
                  throw why;
                }
                skip(file + " line " + number, why.getMessage());
              }
            });
        if (!whole) {
          throw new IOException("interrupted");
        }
        if (!batch[0].items().isEmpty()) {
          put(queue, batch[0]);
        }
      }
    } catch (Stop stop) {
      // a writer failed: reported by the caller
    } finally {
      for (int i = 0; i < writers; i++) {
        while (!queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
          if (threads.stream().noneMatch(Thread::isAlive)) {
            break;
          }
        }
      }
      for (Thread t : threads) {
        t.join();
      }
    }
  }

  private static Batch newBatch() {
    return new Batch(new ArrayList<>(BATCH), new ArrayList<>(BATCH));
  }

  /** Thrown through the reader to stop it once a writer has failed. */
  private static final class Stop extends RuntimeException {
    Stop() {
      super("a writer failed", null, false, false);
    }
  }

  /** Queues a batch, or stops the reading once a writer has failed. */
  private void put(BlockingQueue<Batch> queue, Batch batch) {
    try {
      while (failure == null) {
        if (queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (failure == null) {
        failure = e;
      }
    }
    throw new Stop();
  }

  /** The keys {@code --key} gives, the partition key first, or null. */
  private List<AttributeDefinition> keySchema() {
    if (key == null) {
      return null;
    }
    if (key.isEmpty() || key.size() > 2) {
      throw new IllegalArgumentException("--key is given once for the partition key and once"
          + " more for the sort key, if any");
    }
    return key.stream().map(ImportCommand::keyOption).toList();
  }

  private void write(DynamoDbApi api, BlockingQueue<Batch> queue, TransferProgress shown) {
    try {
      for (Batch b = queue.take(); b != END; b = queue.take()) {
        if (failure == null) {
          writeBatch(api, b, shown);
        }
      }
    } catch (Exception e) {
      if (failure == null) {
        failure = e;
      }
    }
  }

  /**
   * Writes a batch with BatchWriteItem, again with its UnprocessedItems until none is left; a
   * batch refused whole (a ValidationException: an item too large, a key missing or of the wrong
   * type, two items of one key) is written item by item with PutItem, skipping those refused.
   */
  private void writeBatch(DynamoDbApi api, Batch batch, TransferProgress shown)
      throws IOException {
    List<Map<String, AttributeValue>> pending = batch.items();
    for (int attempt = 1; ; attempt++) {
      List<Map<String, AttributeValue>> left;
      try {
        List<Map<String, AttributeValue>> writing = pending;
        left = api.call("BatchWriteItem", out -> requests(out, writing), this::unprocessed);
      } catch (DynamoDbApi.ApiError e) {
        if (!e.type.equals("ValidationException") || pending != batch.items()) {
          throw e;
        }
        writeEach(api, batch, shown);
        return;
      }
      shown.items.addAndGet(pending.size() - left.size());
      if (left.isEmpty()) {
        return;
      }
      if (attempt == ATTEMPTS) {
        throw new IOException("the server left " + left.size() + " items unprocessed after "
            + ATTEMPTS + " attempts of BatchWriteItem");
      }
      DynamoDbApi.backoff(attempt);
      pending = left;
    }
  }

  private void writeEach(DynamoDbApi api, Batch batch, TransferProgress shown)
      throws IOException {
    for (int i = 0; i < batch.items().size(); i++) {
      Map<String, AttributeValue> item = batch.items().get(i);
      try {
        api.call("PutItem", out -> {
          out.writeStringField("TableName", table);
          out.writeFieldName("Item");
          ItemJson.write(out, item);
        }, in -> {
          in.skipChildren();
          return null;
        });
        shown.items.incrementAndGet();
      } catch (DynamoDbApi.ApiError e) {
        if (!e.type.equals("ValidationException")) {
          throw e;
        }
        skip(batch.lines().get(i), e.getMessage());
      }
    }
  }

  private void requests(JsonGenerator out, List<Map<String, AttributeValue>> items)
      throws IOException {
    out.writeObjectFieldStart("RequestItems");
    out.writeArrayFieldStart(table);
    for (Map<String, AttributeValue> item : items) {
      out.writeStartObject();
      out.writeObjectFieldStart("PutRequest");
      out.writeFieldName("Item");
      ItemJson.write(out, item);
      out.writeEndObject();
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  /** The items of a BatchWriteItem answer's UnprocessedItems. */
  private List<Map<String, AttributeValue>> unprocessed(JsonParser in) throws IOException {
    List<Map<String, AttributeValue>> left = new ArrayList<>();
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      in.nextToken();
      if (!field.equals("UnprocessedItems")) {
        in.skipChildren();
        continue;
      }
      while (in.nextToken() == JsonToken.FIELD_NAME) { // a table
        in.nextToken();
        while (in.nextToken() == JsonToken.START_OBJECT) { // a write request
          while (in.nextToken() == JsonToken.FIELD_NAME) {
            String kind = in.currentName();
            in.nextToken();
            if (!kind.equals("PutRequest")) {
              in.skipChildren();
              continue;
            }
            while (in.nextToken() == JsonToken.FIELD_NAME) {
              String member = in.currentName();
              in.nextToken();
              if (member.equals("Item")) {
                left.add(ItemJson.read(in));
              } else {
                in.skipChildren();
              }
            }
          }
        }
      }
    }
    return left;
  }

  private void skip(String where, String why) {
    if (skipped.incrementAndGet() <= SHOWN_SKIPS) {
      synchronized (err) {
        err.println("stator: " + where + " skipped: " + why);
        err.flush();
      }
    }
  }

  /** The stream, counting the bytes read from it into {@code bytes}. */
  private static InputStream counted(InputStream in, AtomicLong bytes) {
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          bytes.incrementAndGet();
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
          bytes.addAndGet(n);
        }
        return n;
      }
    };
  }

  /** {@code NAME:TYPE} as the key's name and type. */
  private static AttributeDefinition keyOption(String spec) {
    String[] parts = spec.split(":", 2);
    if (parts.length != 2 || parts[0].isEmpty()
        || !Arrays.asList("S", "N", "B").contains(parts[1])) {
      throw new IllegalArgumentException("--key " + spec + ": expected NAME:TYPE with TYPE S,"
          + " N or B, such as pk:S");
    }
    return new AttributeDefinition(parts[0], parts[1]);
  }
}
