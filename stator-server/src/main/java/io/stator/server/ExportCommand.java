package io.stator.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.api.ExportDescription;
import io.stator.api.ExportFormat;
import io.stator.export.ExportWriter;
import io.stator.server.wire.ItemJson;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stator export --table T --to DIR}: a table of a running server written to files as
 * ExportTableToPointInTime writes them ({@code DIR/AWSDynamoDB/<ExportId>/data/*.json.gz} in
 * {@code DYNAMODB_JSON}, or {@code *.ion.gz} in {@code ION} with {@code --format ION}, then the
 * manifests), through the API alone, so no AWS client and no
 * point-in-time recovery is needed. The table is read by a parallel Scan of strongly consistent
 * reads ({@code --segments} at once), each page written to the files as it arrives, so the table
 * is never held in memory. A Scan is no snapshot: an item written while the export runs may or
 * may not be in it, where ExportTableToPointInTime exports the table as of one second.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Export a table of a running server to DynamoDB's export files"
        + " (DYNAMODB_JSON or ION, gzip'd), by a parallel Scan.")
final class ExportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--table", required = true, description = "The table to export.")
  String table;

  @Option(names = "--to", required = true,
      description = "The directory the export is written under (made if missing).")
  Path to;

  @Option(names = "--segments", defaultValue = "4",
      description = "Scan segments read at once (default: ${DEFAULT-VALUE}).")
  int segments;

  @Option(names = "--format", defaultValue = "DYNAMODB_JSON",
      description = "DYNAMODB_JSON or ION, as ExportTableToPointInTime writes them"
          + " (default: ${DEFAULT-VALUE}).")
  String format;

  @Mixin TransferOptions server;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (segments < 1 || segments > 1_000_000) {
      err.println("stator: --segments must be between 1 and 1000000");
      err.flush();
      return 1;
    }
    ExportFormat exportFormat;
    try {
      exportFormat = ExportFormat.valueOf(format);
    } catch (IllegalArgumentException unknown) {
      err.println("stator: --format is DYNAMODB_JSON or ION, not " + format);
      err.flush();
      return 1;
    }
    DynamoDbApi api = server.api();
    try {
      TransferProgress.Mode mode = server.mode();
      TableInfo info = TableInfo.describe(api, table);
      ExportDescription done;
      try (ExportWriter writer =
              ExportWriter.create(to, info.arn(), info.id(), Instant.now(), exportFormat);
          TransferProgress shown = new TransferProgress(err, mode, "exported")) {
        if (info.itemCount() > 0) {
          shown.totalItems(info.itemCount());
        }
        scan(api, writer, shown);
        done = writer.finish(Instant.now());
        shown.close();
        out.println("Exported " + String.format("%,d", done.itemCount()) + " items ("
            + TransferProgress.megabytes(done.billedSizeBytes()) + ") of table " + table + " "
            + shown.rates(done.billedSizeBytes()));
        out.println("Files: " + writer.exportDirectory());
      }
      out.flush();
      return 0;
    } catch (DynamoDbApi.ApiError | IllegalArgumentException e) {
      err.println("stator: " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      err.println("stator: export of " + table + " failed: " + (e.getMessage() != null
          ? e.getMessage() : e.getClass().getSimpleName()));
    }
    err.flush();
    return 1;
  }

  /** The segments read at once, each by a thread of its own; the first failure ends them all. */
  private void scan(DynamoDbApi api, ExportWriter writer, TransferProgress shown)
      throws IOException {
    ExecutorService threads = Executors.newFixedThreadPool(segments, r -> {
      Thread t = new Thread(r, "stator-export-scan");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int s = 0; s < segments; s++) {
        int segment = s;
        running.add(threads.submit(() -> {
          scanSegment(api, segment, writer, shown);
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw (RuntimeException) e.getCause();
    } finally {
      threads.shutdownNow();
    }
  }

  private void scanSegment(DynamoDbApi api, int segment, ExportWriter writer,
      TransferProgress shown) throws IOException {
    Map<String, AttributeValue> after = null;
    do {
      Map<String, AttributeValue> start = after;
      after = api.call("Scan", out -> {
        out.writeStringField("TableName", table);
        out.writeBooleanField("ConsistentRead", true);
        if (segments > 1) {
          out.writeNumberField("Segment", segment);
          out.writeNumberField("TotalSegments", segments);
        }
        if (start != null) {
          out.writeFieldName("ExclusiveStartKey");
          ItemJson.write(out, start);
        }
      }, in -> page(in, writer, shown));
    } while (after != null);
  }

  /** Writes a Scan page's items as they are read; answers its LastEvaluatedKey. */
  private static Map<String, AttributeValue> page(JsonParser in, ExportWriter writer,
      TransferProgress shown) throws IOException {
    Map<String, AttributeValue> last = null;
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      JsonToken value = in.nextToken();
      if (field.equals("Items") && value == JsonToken.START_ARRAY) {
        while (in.nextToken() == JsonToken.START_OBJECT) {
          Map<String, AttributeValue> item = ItemJson.read(in);
          writer.write(item);
          shown.items.incrementAndGet();
          shown.bytes.set(writer.billedSizeBytes());
        }
      } else if (field.equals("LastEvaluatedKey") && value == JsonToken.START_OBJECT) {
        last = ItemJson.read(in);
      } else {
        in.skipChildren();
      }
    }
    return last;
  }
}
