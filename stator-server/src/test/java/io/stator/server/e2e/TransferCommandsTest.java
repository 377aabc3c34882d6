package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.server.CommandRun;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.InputCompressionType;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;

/**
 * {@code stator export} and {@code stator import}, run in this JVM against the real server: a
 * table of every attribute type exported and imported into a new table is the table again, item
 * for item; the export's files are those ExportTableToPointInTime writes (ImportTable takes them);
 * CSV into an existing table with a GSI, its bad lines skipped and named; a batch of one key twice
 * written item by item; and bad input answered with a message and exit status 1.
 */
class TransferCommandsTest extends TableFilesTest {
  private static final Pattern FILES = Pattern.compile("Files: (.*)");

  @TempDir Path dir;
  private final CommandRun stator = new CommandRun();

  @BeforeEach
  void needsTheServersDisk() {
    assumeTrue(endpoint.exportDirectory() != null, "ImportTable reads the server's disk");
  }

  private String url() {
    return endpoint.uri().toString();
  }

  /** A table like {@link #recoveredTable}'s, written with the rows 0 to n-1. */
  private Map<String, Map<String, AttributeValue>> filled(String table, int n) {
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      put(table, row(i, "cli"), model);
    }
    return model;
  }

  /** The export's directory, as the summary names it. */
  private Path exported() {
    Matcher m = FILES.matcher(stator.out());
    assertThat(m.find()).as(stator.out()).isTrue();
    return Path.of(m.group(1).trim());
  }

  @Test
  void anExportImportedIntoANewTableIsTheTableItemByItem() {
    String source = recoveredTable("cli-source");
    Map<String, Map<String, AttributeValue>> model = filled(source, 240);

    int status = stator.run("export", "--table", source, "--to", dir.toString(),
        "--endpoint", url(), "--segments", "3", "--progress", "none");
    assertThat(status).as(stator.err()).isZero();
    assertThat(stator.out()).contains("Exported 240 items", "of table " + source);
    Path files = exported();
    assertThat(files.getParent()).isEqualTo(dir.resolve("AWSDynamoDB"));
    ExportedFiles written = new ExportedFiles(dir,
        dir.relativize(files.resolve("manifest-summary.json")).toString());
    assertThat(written.summary().get("itemCount").asNumber()).isEqualTo("240");
    assertThat(written.summary().get("tableArn").asString()).isEqualTo(tableArn(source));
    Map<String, Map<String, AttributeValue>> inFiles = new TreeMap<>();
    written.items().forEach(i -> inFiles.put(keyOf(i), i));
    assertThat(inFiles).isEqualTo(model);

    String target = uniqueTableName("cli-target");
    status = stator.run("import", "--from", dir.toString(), "--table", target,
        "--key", "pk:S,sk:N", "--endpoint", url(), "--writers", "3", "--progress", "lines");
    assertThat(status).as(stator.err()).isZero();
    assertThat(stator.out()).contains("Imported 240 items (",
        "into table " + target + " from 1 file (");
    assertThat(items(target)).isEqualTo(model);
    assertThat(dynamo.describeTable(r -> r.tableName(target)).table().keySchema())
        .containsExactly(key("pk", KeyType.HASH), key("sk", KeyType.RANGE));
  }

  @Test
  void anIonExportImportsBackItemByItem() throws IOException {
    String source = recoveredTable("cli-ion");
    Map<String, Map<String, AttributeValue>> model = filled(source, 50);
    assertThat(stator.run("export", "--table", source, "--to", dir.toString(), "--format", "ION",
        "--endpoint", url(), "--progress", "none")).as(stator.err()).isZero();
    Path files = exported();
    try (var data = Files.list(files.resolve("data"))) {
      assertThat(data.map(f -> f.getFileName().toString()))
          .isNotEmpty().allMatch(name -> name.endsWith(".ion.gz"));
    }
    assertThat(Files.readString(files.resolve("manifest-summary.json")))
        .contains("\"outputFormat\":\"ION\"");

    String target = uniqueTableName("cli-ion-target");
    assertThat(stator.run("import", "--from", files.resolve("data").toString(), "--table", target,
        "--key", "pk:S,sk:N", "--endpoint", url(), "--progress", "none"))
        .as(stator.err()).isZero();
    assertThat(items(target)).isEqualTo(model);
    assertThat(stator.run("export", "--table", source, "--to", dir.toString(), "--format", "CSV",
        "--endpoint", url())).isEqualTo(1);
    assertThat(stator.err()).contains("--format is DYNAMODB_JSON or ION, not CSV");
  }

  @Test
  void importTableTakesTheFilesOfTheCommandsExport() {
    String source = recoveredTable("cli-files");
    Map<String, Map<String, AttributeValue>> model = filled(source, 60);
    Path bucket = bucket("cli-bucket");
    assertThat(stator.run("export", "--table", source, "--to", bucket.resolve("under").toString(),
        "--endpoint", url(), "--progress", "none")).as(stator.err()).isZero();
    String prefix = bucket.relativize(exported()).toString() + "/data/";

    String target = uniqueTableName("cli-files-import");
    ImportTableDescription done = awaitImport(dynamo.importTable(r -> r
        .s3BucketSource(b -> b.s3Bucket("cli-bucket").s3KeyPrefix(prefix))
        .inputFormat(InputFormat.DYNAMODB_JSON).inputCompressionType(InputCompressionType.GZIP)
        .tableCreationParameters(ImportTest.sameShape(target))).importTableDescription()
        .importArn());
    assertThat(done.importStatus()).isEqualTo(ImportStatus.COMPLETED);
    assertThat(done.importedItemCount()).isEqualTo(60);
    assertThat(items(target)).isEqualTo(model);
  }

  @Test
  void csvIntoAnExistingTableSkipsAndNamesItsBadLines() throws IOException {
    String table = recoveredTable("cli-csv");
    Path csv = dir.resolve("rows.csv.gz");
    write(csv, "pk;sk;g;note\n"
        + "a;1;g1;first\n"
        + "a;x;g1;sk is no number\n"
        + "b;2;;\"semi;colon\"\n"
        + "c;3;g1\n" // a cell short
        + "d;4;g2;last\n", true);

    int status = stator.run("import", "--from", csv.toString(), "--table", table,
        "--csv-delimiter", ";", "--endpoint", url(), "--progress", "none");
    assertThat(status).isEqualTo(2);
    assertThat(stator.out()).contains("Imported 3 items", "2 lines skipped");
    assertThat(stator.err()).contains(csv + " line 3 skipped", csv + " line 5 skipped",
        "3 cells where the header has 4");
    Map<String, Map<String, AttributeValue>> items = items(table);
    assertThat(items.keySet()).containsExactly("a/1", "b/2", "d/4");
    assertThat(items.get("b/2")).isEqualTo(Map.of("pk", s("b"), "sk", n("2"),
        "note", s("semi;colon")));
    endpoint.awaitIndexes();
    assertThat(dynamo.query(r -> r.tableName(table).indexName("byG")
        .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("g1"))))
        .items()).containsExactly(items.get("a/1"));
  }

  @Test
  void aZstdFileIsDecompressedByItsName() throws IOException {
    String table = recoveredTable("cli-zstd");
    Path zst = dir.resolve("items.json.zst");
    try (var out = new com.github.luben.zstd.ZstdOutputStream(
        java.nio.file.Files.newOutputStream(zst))) {
      out.write(("{\"Item\":{\"pk\":{\"S\":\"z\"},\"sk\":{\"N\":\"1\"}}}\n"
          + "{\"Item\":{\"pk\":{\"S\":\"z\"},\"sk\":{\"N\":\"2\"}}}\n")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    assertThat(stator.run("import", "--from", zst.toString(), "--table", table,
        "--endpoint", url(), "--progress", "none")).as(stator.err()).isZero();
    assertThat(items(table)).containsOnlyKeys("z/1", "z/2");
    Path ion = dir.resolve("more.ion");
    write(ion, "$ion_1_0 {Item:{pk:\"z\",sk:3.,v:$dynamodb_NS::[1.,2d1]}}\n",
        false);
    assertThat(stator.run("import", "--from", ion.toString(), "--table", table,
        "--endpoint", url(), "--progress", "none")).as(stator.err()).isZero();
    assertThat(items(table).get("z/3").get("v").ns()).containsExactlyInAnyOrder("1", "20");
    assertThat(stator.run("import", "--from", zst.toString(), "--table", table,
        "--compression", "GZIP", "--endpoint", url(), "--progress", "none")).isEqualTo(1);
    assertThat(stator.err()).contains("Not in GZIP format");
  }

  @Test
  void aBatchRefusedWholeIsWrittenItemByItem() throws IOException {
    String table = recoveredTable("cli-dup");
    Path json = dir.resolve("items.json");
    // One key twice in a batch: BatchWriteItem refuses it, PutItem writes each, the last wins.
    // An item whose key has the wrong type: refused by PutItem too, so skipped.
    write(json, "{\"Item\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"old\"}}}\n"
        + "{\"Item\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"S\":\"1\"}}}\n"
        + "{\"Item\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"new\"}}}\n"
        + "not json\n", false);

    int status = stator.run("import", "--from", json.toString(), "--table", table,
        "--endpoint", url(), "--progress", "none");
    assertThat(status).isEqualTo(2);
    assertThat(stator.out()).contains("Imported 2 items", "2 lines skipped");
    assertThat(stator.err()).contains(json + " line 2 skipped: ValidationException",
        json + " line 4 skipped");
    assertThat(items(table)).isEqualTo(Map.of("k/1",
        Map.of("pk", s("k"), "sk", n("1"), "v", s("new"))));
  }

  @Test
  void badInputIsAMessageAndStatusOne() throws IOException {
    String table = recoveredTable("cli-bad");
    Path json = dir.resolve("one.json");
    write(json, "{\"Item\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"N\":\"1\"}}}\n", false);
    String missing = uniqueTableName("cli-missing");

    assertThat(stator.run("import", "--from", json.toString(), "--table", missing,
        "--endpoint", url())).isEqualTo(1);
    assertThat(stator.err()).contains("table " + missing + " not found", "--key NAME:TYPE");
    assertThat(stator.run("import", "--from", json.toString(), "--table", table,
        "--key", "pk:N", "--endpoint", url())).isEqualTo(1);
    assertThat(stator.err()).contains("exists with other keys");
    assertThat(stator.run("import", "--from", json.toString(), "--table", missing,
        "--key", "pk", "--endpoint", url())).isEqualTo(1);
    assertThat(stator.err()).contains("expected NAME:TYPE");
    assertThat(stator.run("import", "--from", dir.resolve("nothing").toString(),
        "--table", table, "--endpoint", url())).isEqualTo(1);
    assertThat(stator.err()).contains("no such file or directory");
    assertThat(stator.run("import", "--from", json.toString(), "--table", table,
        "--format", "XML", "--endpoint", url())).isEqualTo(1);
    assertThat(stator.err()).contains("--format is DYNAMODB_JSON, ION or CSV");
    assertThat(stator.run("export", "--table", missing, "--to", dir.toString(),
        "--endpoint", url())).isEqualTo(1);
    assertThat(stator.err()).contains("ResourceNotFoundException");
    assertThat(stator.run("export", "--table", table, "--to", dir.toString(),
        "--endpoint", "http://127.0.0.1:" + freePort())).isEqualTo(1);
    assertThat(stator.err()).contains("cannot reach", "--endpoint");
    assertThat(items(table)).isEmpty();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
