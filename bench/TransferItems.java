import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * bench/transfer.sh's items (run as a source file: java bench/TransferItems.java N FILE): N
 * items as DYNAMODB_JSON lines, gzip'd, of about 200 bytes each: a string partition key, a
 * number, a string of 100 characters, a boolean, a list and a map, the same for every run.
 */
public final class TransferItems {
  public static void main(String[] args) throws IOException {
    long n = Long.parseLong(args[0]);
    try (Writer out = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(
        Files.newOutputStream(Path.of(args[1])), 1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
      String filler = "x".repeat(90);
      for (long i = 0; i < n; i++) {
        out.write(String.format(Locale.ROOT, "{\"Item\":{\"pk\":{\"S\":\"item-%09d\"},"
            + "\"n\":{\"N\":\"%d.5\"},\"text\":{\"S\":\"%s %08d\"},\"ok\":{\"BOOL\":%b},"
            + "\"l\":{\"L\":[{\"N\":\"%d\"},{\"S\":\"a\"}]},\"m\":{\"M\":{\"k\":{\"S\":\"v%d\"}}}}}\n",
            i, i, filler, i, i % 2 == 0, i % 100, i % 7));
      }
    }
  }
}
