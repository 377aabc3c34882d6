package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportConflictException;
import software.amazon.awssdk.services.dynamodb.model.ImportNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportSummary;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.ImportTableRequest;
import software.amazon.awssdk.services.dynamodb.model.InputCompressionType;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListImportsResponse;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableCreationParameters;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * ImportTable, DescribeImport and ListImports through the AWS SDK: an export imported into a new
 * table reproduces the table, item for item and its GSI entry for entry; CSV (header line or
 * HeaderList, another delimiter, gzip) and DYNAMODB_JSON files with bad lines, which are counted
 * and skipped; the statuses IN_PROGRESS then COMPLETED, kept across a restart; and DynamoDB's
 * errors, a prefix outside the export directory among them, making no table.
 */
class ImportTest extends TableFilesTest {
  @BeforeEach
  void needsTheServersDisk() {
    assumeTrue(endpoint.exportDirectory() != null, "the files are written to the server's disk");
  }

  /** pk S, sk N, GSI byG on g (ALL): the shape of {@link #recoveredTable}. */
  static TableCreationParameters sameShape(String name) {
    return TableCreationParameters.builder().tableName(name)
        .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
        .attributeDefinitions(attribute("pk", S), attribute("sk", ScalarAttributeType.N),
            attribute("g", S))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .globalSecondaryIndexes(i -> i.indexName("byG").keySchema(key("g", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.ALL)))
        .build();
  }

  ImportTableDescription startImport(Consumer<ImportTableRequest.Builder> request) {
    ImportTableDescription started = dynamo.importTable(request).importTableDescription();
    assertThat(started.importStatus()).isEqualTo(ImportStatus.IN_PROGRESS);
    return started;
  }

  List<Map<String, AttributeValue>> queryIndex(String table, String g) {
    List<Map<String, AttributeValue>> out = new ArrayList<>();
    for (var page : dynamo.queryPaginator(r -> r.tableName(table).indexName("byG")
        .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s(g))))) {
      out.addAll(page.items());
    }
    out.sort(Comparator.comparing(ExportTest::keyOf));
    return out;
  }

  @Test
  void anExportImportedIsTheTableAgainItemByItemAndIndexByIndex() {
    String source = recoveredTable("import-source");
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < 150; i++) {
      put(source, row(i, "exported"), model);
    }
    ExportDescription exported = awaitExport(export(source, null, "bucket-round", "trip")
        .exportArn());
    String data = exported.exportManifest().replace("manifest-summary.json", "data/");
    String target = uniqueTableName("import-target");
    ImportTableDescription started = startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-round").s3KeyPrefix(data))
        .inputFormat(InputFormat.DYNAMODB_JSON).inputCompressionType(InputCompressionType.GZIP)
        .tableCreationParameters(sameShape(target)));
    TableDescription made = dynamo.describeTable(r -> r.tableName(target)).table();
    assertThat(started.importArn()).startsWith(made.tableArn() + "/import/");
    assertThat(started.tableArn()).isEqualTo(made.tableArn());
    assertThat(started.tableId()).isEqualTo(made.tableId());
    assertThat(made.tableStatus()).isIn(TableStatus.CREATING, TableStatus.ACTIVE);

    ImportTableDescription done = awaitImport(started.importArn());
    assertThat(done.importStatus()).isEqualTo(ImportStatus.COMPLETED);
    assertThat(done.processedItemCount()).isEqualTo(150);
    assertThat(done.importedItemCount()).isEqualTo(150);
    assertThat(done.errorCount()).isZero();
    assertThat(done.processedSizeBytes()).isGreaterThan(0L);
    assertThat(done.endTime()).isAfterOrEqualTo(done.startTime());
    assertThat(done.tableCreationParameters()).isEqualTo(sameShape(target));
    awaitActive(target);
    assertThat(items(target)).isEqualTo(model);
    endpoint.awaitIndexes();
    for (int g = 0; g < 5; g++) {
      assertThat(queryIndex(target, "g" + g)).as("byG g%s", g)
          .isEqualTo(queryIndex(source, "g" + g)).isNotEmpty();
    }
  }

  @Test
  void csvRowsAreTypedByTheDefinitionsAndBadRowsCountedAndSkipped() throws IOException {
    Path bucket = bucket("bucket-csv");
    write(bucket.resolve("people/a.csv"), String.join("\n",
        "pk,sk,name,score",
        "p1,1,Ann,7",
        "p1,2,\"Smith, \"\"Bo\"\"\",8",
        "p2,3,,9",
        "p3,4,too,many,cells",
        "p4,four,x,1",
        ",5,no key,1",
        "",
        "p5,6,Eve,10"), false);
    write(bucket.resolve("people/b.csv"), "pk,sk,name,score\np6,7,Ida,11\n", false);
    write(bucket.resolve("other/c.csv"), "pk,sk,name,score\np9,9,not,read\n", false);
    String target = uniqueTableName("import-csv");
    ImportTableDescription done = awaitImport(startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-csv").s3KeyPrefix("people/"))
        .inputFormat(InputFormat.CSV).tableCreationParameters(sameShape(target)))
        .importArn());
    assertThat(done.importStatus()).isEqualTo(ImportStatus.COMPLETED);
    assertThat(done.processedItemCount()).isEqualTo(8);
    assertThat(done.importedItemCount()).isEqualTo(5);
    assertThat(done.errorCount()).isEqualTo(3);
    awaitActive(target);
    Map<String, Map<String, AttributeValue>> items = items(target);
    assertThat(items.keySet()).containsExactly("p1/1", "p1/2", "p2/3", "p5/6", "p6/7");
    assertThat(items.get("p1/2")).isEqualTo(item("pk", s("p1"), "sk", n("2"),
        "name", s("Smith, \"Bo\""), "score", s("8")));
    assertThat(items.get("p2/3")).isEqualTo(item("pk", s("p2"), "sk", n("3"),
        "score", s("9")));
  }

  @Test
  void aGzippedCsvWithAHeaderListAndAnotherDelimiter() throws IOException {
    write(bucket("bucket-csv2").resolve("rows.csv.gz"),
        "a;1;g1\nb;2;g1\nc;x;g2\nd;4;g2\n", true);
    String target = uniqueTableName("import-csv2");
    ImportTableDescription done = awaitImport(startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-csv2"))
        .inputFormat(InputFormat.CSV).inputCompressionType(InputCompressionType.GZIP)
        .inputFormatOptions(o -> o.csv(c -> c.delimiter(";").headerList("pk", "sk", "g")))
        .tableCreationParameters(sameShape(target))).importArn());
    assertThat(done.importStatus()).isEqualTo(ImportStatus.COMPLETED);
    assertThat(List.of(done.processedItemCount(), done.importedItemCount(), done.errorCount()))
        .containsExactly(4L, 3L, 1L);
    assertThat(done.inputFormatOptions().csv().headerList()).containsExactly("pk", "sk", "g");
    awaitActive(target);
    endpoint.awaitIndexes();
    assertThat(queryIndex(target, "g1")).extracting(ExportTest::keyOf)
        .containsExactly("a/1", "b/2");
    assertThat(queryIndex(target, "g2")).extracting(ExportTest::keyOf).containsExactly("d/4");
  }

  /**
   * An ION export (ExportFormat ION: data/*.ion.gz, Ion text lines {Item:{...}} after Ion's
   * version marker) imported with InputFormat ION is the table again, every attribute type
   * included.
   */
  @Test
  void anIonExportImportedIsTheTableAgain() {
    String source = recoveredTable("import-ion-source");
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < 80; i++) {
      put(source, row(i, "ion"), model);
    }
    String arn = dynamo.exportTableToPointInTime(r -> r.tableArn(tableArn(source))
        .s3Bucket("bucket-ion").s3Prefix("x").exportFormat(ExportFormat.ION))
        .exportDescription().exportArn();
    ExportDescription exported = awaitExport(arn);
    assertThat(exported.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
    assertThat(exported.exportFormat()).isEqualTo(ExportFormat.ION);
    assertThat(exported.itemCount()).isEqualTo(80);
    ExportedFiles files = new ExportedFiles(bucket("bucket-ion"), exported.exportManifest());
    assertThat(files.summary().get("outputFormat").asString()).isEqualTo("ION");
    assertThat(files.dataFiles().keySet()).allSatisfy(k -> assertThat(k).endsWith(".ion.gz"));
    List<String> lines = ExportedFiles.gunzippedLines(bucket("bucket-ion")
        .resolve(files.dataFiles().keySet().iterator().next()));
    assertThat(lines.get(0)).startsWith("$ion_1_0 {Item:{");
    assertThat(lines.get(1)).startsWith("{Item:{");

    String data = exported.exportManifest().replace("manifest-summary.json", "data/");
    String target = uniqueTableName("import-ion-target");
    ImportTableDescription done = awaitImport(startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-ion").s3KeyPrefix(data))
        .inputFormat(InputFormat.ION).inputCompressionType(InputCompressionType.GZIP)
        .tableCreationParameters(sameShape(target))).importArn());
    assertThat(done.importStatus()).isEqualTo(ImportStatus.COMPLETED);
    assertThat(List.of(done.importedItemCount(), done.errorCount())).containsExactly(80L, 0L);
    awaitActive(target);
    assertThat(items(target)).isEqualTo(model);
  }

  /** Ion as DynamoDB writes it and Ion's other spellings of the same values; bad lines counted. */
  @Test
  void ionLinesInDynamoDbsMappingAreItems() throws IOException {
    write(bucket("bucket-ion2").resolve("in.ion"), String.join("\n",
        "$ion_1_0 {Item:{pk:\"a\",sk:103.,Authors:$dynamodb_SS::[\"A1\",\"A2\"],"
            + "Price:2d3,Ratio:-1.25d-2,InPublication:false,Data:{{AAE=}},None:null,"
            + "Sizes:$dynamodb_NS::[1.,2.5],Blobs:$dynamodb_BS::[{{AQ==}}],"
            + "Nested:{'odd name':[1,\"x\\n\\u00e9\"]}}}",
        "{Item:{pk:\"b\",sk:2,g:\"g1\"}}",
        "{Item:{pk:\"c\",sk:1.5e3}}",
        "{Item:{pk:\"d\",sk:4., v:$other::[1.]}}",
        "not ion"), false);
    String target = uniqueTableName("import-ion2");
    ImportTableDescription done = awaitImport(startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-ion2"))
        .inputFormat(InputFormat.ION).tableCreationParameters(sameShape(target))).importArn());
    assertThat(List.of(done.processedItemCount(), done.importedItemCount(), done.errorCount()))
        .containsExactly(5L, 2L, 3L);
    awaitActive(target);
    Map<String, Map<String, AttributeValue>> items = items(target);
    assertThat(items.keySet()).containsExactly("a/103", "b/2");
    Map<String, AttributeValue> a = items.get("a/103");
    assertThat(a.get("Authors")).isEqualTo(ss("A1", "A2"));
    assertThat(a.get("Price")).isEqualTo(n("2000"));
    assertThat(a.get("Ratio")).isEqualTo(n("-0.0125"));
    assertThat(a.get("InPublication")).isEqualTo(AttributeValue.fromBool(false));
    assertThat(a.get("Data").b().asByteArray()).containsExactly(0, 1);
    assertThat(a.get("None")).isEqualTo(AttributeValue.fromNul(true));
    assertThat(a.get("Sizes").ns()).containsExactlyInAnyOrder("1", "2.5");
    assertThat(a.get("Blobs").bs()).hasSize(1);
    assertThat(a.get("Nested").m().get("odd name").l())
        .containsExactly(n("1"), s("x\n\u00e9"));
  }

  @Test
  void zstdFilesAreDecompressedAsTheyAreRead() throws IOException {
    Path bucket = bucket("bucket-zstd");
    Files.createDirectories(bucket.resolve("ok"));
    StringBuilder lines = new StringBuilder();
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < 300; i++) {
      lines.append("{\"Item\":{\"pk\":{\"S\":\"z").append(i % 4)
          .append("\"},\"sk\":{\"N\":\"").append(i).append("\"},\"g\":{\"S\":\"g")
          .append(i % 3).append("\"}}}\n");
      model.put("z" + i % 4 + "/" + i, Map.of("pk", s("z" + i % 4), "sk", n("" + i),
          "g", s("g" + i % 3)));
    }
    try (OutputStream out = new com.github.luben.zstd.ZstdOutputStream(
        Files.newOutputStream(bucket.resolve("ok/items.json.zst")))) {
      out.write(lines.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    String target = uniqueTableName("import-zstd");
    ImportTableDescription done = awaitImport(startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-zstd").s3KeyPrefix("ok/"))
        .inputFormat(InputFormat.DYNAMODB_JSON).inputCompressionType(InputCompressionType.ZSTD)
        .tableCreationParameters(sameShape(target))).importArn());
    assertThat(done.importStatus()).isEqualTo(ImportStatus.COMPLETED);
    assertThat(done.inputCompressionType()).isEqualTo(InputCompressionType.ZSTD);
    assertThat(done.importedItemCount()).isEqualTo(300);
    awaitActive(target);
    assertThat(items(target)).isEqualTo(model);

    // A file that is no Zstandard: the import fails, saying why.
    write(bucket.resolve("bad/plain.json"), lines.toString(), false);
    String other = uniqueTableName("import-zstd-bad");
    ImportTableDescription failed = awaitImport(startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-zstd").s3KeyPrefix("bad/"))
        .inputFormat(InputFormat.DYNAMODB_JSON).inputCompressionType(InputCompressionType.ZSTD)
        .tableCreationParameters(sameShape(other))).importArn());
    assertThat(failed.importStatus()).isEqualTo(ImportStatus.FAILED);
    assertThat(failed.failureCode()).isEqualTo("S3ReadFailed");
    assertThat(failed.importedItemCount()).isZero();
  }

  @Test
  void malformedJsonLinesAreCountedAndSkipped() throws IOException {
    write(bucket("bucket-json").resolve("in/items.json"), String.join("\n",
        "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"SS\":[\"x\",\"y\"]}}}",
        "not json at all",
        "{\"Item\":{\"pk\":{\"S\":\"b\"}}}",
        "{\"Item\":{\"pk\":{\"N\":\"1\"},\"sk\":{\"N\":\"1\"}}}",
        "{\"Item\":{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"1e500\"}}}",
        "{\"Item\":{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"2\"}},\"Extra\":1}",
        "",
        "{\"Item\":{\"pk\":{\"S\":\"e\"},\"sk\":{\"N\":\"3\"},\"g\":{\"S\":\"g9\"}}}"), false);
    String target = uniqueTableName("import-json");
    ImportTableDescription done = awaitImport(startImport(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-json").s3KeyPrefix("in/items"))
        .inputFormat(InputFormat.DYNAMODB_JSON).inputCompressionType(InputCompressionType.NONE)
        .tableCreationParameters(sameShape(target))).importArn());
    assertThat(done.importStatus()).isEqualTo(ImportStatus.COMPLETED);
    assertThat(List.of(done.processedItemCount(), done.importedItemCount(), done.errorCount()))
        .containsExactly(7L, 2L, 5L);
    awaitActive(target);
    assertThat(items(target)).containsOnlyKeys("a/1", "e/3");
    assertThat(items(target).get("a/1").get("v")).isEqualTo(ss("x", "y"));
  }

  @Test
  void aRetryWithItsClientTokenIsTheSameImportAndOtherParametersAConflict() throws IOException {
    write(bucket("bucket-token").resolve("x.json"),
        "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}\n", false);
    String target = uniqueTableName("import-token");
    Consumer<ImportTableRequest.Builder> request = r -> r.clientToken("import-token-1")
        .s3BucketSource(b -> b.s3Bucket("bucket-token")).inputFormat(InputFormat.DYNAMODB_JSON)
        .tableCreationParameters(sameShape(target));
    ImportTableDescription first = startImport(request);
    ImportTableDescription retried = dynamo.importTable(request).importTableDescription();
    assertThat(retried.importArn()).isEqualTo(first.importArn());
    assertErrorContaining(ImportConflictException.class, "ImportConflictException",
        "import-token-1", () -> dynamo.importTable(r -> r.clientToken("import-token-1")
            .s3BucketSource(b -> b.s3Bucket("bucket-token")).inputFormat(InputFormat.CSV)
            .tableCreationParameters(sameShape(target))));
    assertThat(awaitImport(first.importArn()).importedItemCount()).isEqualTo(1);
    assertThat(dynamo.listImports(r -> r.tableArn(first.tableArn())).importSummaryList())
        .extracting(ImportSummary::importArn).containsExactly(first.importArn());
  }

  @Test
  void dynamoDbsErrorsForAnImportMakeNoTable() throws IOException {
    write(bucket("bucket-bad").resolve("x.json"),
        "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}\n", false);
    String taken = recoveredTable("import-taken");
    assertErrorContaining(ResourceInUseException.class, "ResourceInUseException", taken,
        () -> dynamo.importTable(r -> r.s3BucketSource(b -> b.s3Bucket("bucket-bad"))
            .inputFormat(InputFormat.DYNAMODB_JSON).tableCreationParameters(sameShape(taken))));
    String target = uniqueTableName("import-refused");
    for (String prefix : List.of("../x", "/etc", "a/../../b")) {
      assertValidationContaining("Invalid S3Prefix", () -> dynamo.importTable(r -> r
          .s3BucketSource(b -> b.s3Bucket("bucket-bad").s3KeyPrefix(prefix))
          .inputFormat(InputFormat.DYNAMODB_JSON).tableCreationParameters(sameShape(target))));
    }
    assertValidationContaining("No file in S3Bucket 'bucket-bad' has a key starting with 'y'",
        () -> dynamo.importTable(r -> r.s3BucketSource(b -> b.s3Bucket("bucket-bad")
            .s3KeyPrefix("y")).inputFormat(InputFormat.DYNAMODB_JSON)
            .tableCreationParameters(sameShape(target))));
    assertValidationContaining("InputFormatOptions.Csv", () -> dynamo.importTable(r -> r
        .s3BucketSource(b -> b.s3Bucket("bucket-bad")).inputFormat(InputFormat.DYNAMODB_JSON)
        .inputFormatOptions(o -> o.csv(c -> c.delimiter(";")))
        .tableCreationParameters(sameShape(target))));
    assertThat(dynamo.listTables().tableNames()).doesNotContain(target);
    String arn = tableArn(taken);
    assertErrorContaining(ImportNotFoundException.class, "ImportNotFoundException",
        "Import not found", () -> dynamo.describeImport(r -> r.importArn(arn
            + "/import/01700000000000-0123abcd")));
    assertThat(dynamo.listImports(r -> r.tableArn(arn)).importSummaryList()).isEmpty();
  }

  @Test
  void importsAreListedPageByPageAndOutliveARestart() throws IOException {
    write(bucket("bucket-list").resolve("one.json"),
        "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}\n", false);
    List<ImportTableDescription> done = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String target = uniqueTableName("import-list");
      done.add(awaitImport(startImport(r -> r.s3BucketSource(b -> b.s3Bucket("bucket-list"))
          .inputFormat(InputFormat.DYNAMODB_JSON).tableCreationParameters(sameShape(target)))
          .importArn()));
    }
    ListImportsResponse first = dynamo.listImports(r -> r.pageSize(2)
        .tableArn(done.get(1).tableArn()));
    assertThat(first.importSummaryList()).extracting(ImportSummary::importArn)
        .containsExactly(done.get(1).importArn());
    assertThat(first.importSummaryList().get(0).importStatus())
        .isEqualTo(ImportStatus.COMPLETED);
    assertThat(first.nextToken()).isNull();
    List<String> all = new ArrayList<>();
    String token = null;
    do {
      String from = token;
      ListImportsResponse page = dynamo.listImports(r -> r.pageSize(1).nextToken(from));
      assertThat(page.importSummaryList()).hasSizeLessThanOrEqualTo(1);
      page.importSummaryList().forEach(s -> all.add(s.importArn()));
      token = page.nextToken();
    } while (token != null);
    assertThat(all).containsSubsequence(done.stream().map(ImportTableDescription::importArn)
        .toList());
    if (target.isDurable()) {
      endpoint.restart();
      dynamo = endpoint.client();
      for (ImportTableDescription d : done) {
        assertThat(dynamo.describeImport(r -> r.importArn(d.importArn()))
            .importTableDescription()).isEqualTo(d);
      }
    }
  }
}
