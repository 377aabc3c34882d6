package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.Stator;
import io.stator.server.auth.Credential;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The console in a real headless Chromium (Debian's {@code chromium}) against a real server:
 * tables listed, item collections grouped by partition key in DynamoDB's sort-key order (bytes
 * for strings, values for numbers) with entity types from key prefixes, and a hot key in the
 * partition view. Runs where {@code chromium} is installed; {@code .ci/run} installs it and sets
 * {@code STATOR_CONSOLE_REQUIRE_BROWSER=true} so that CI never skips it.
 */
class ConsoleTest {
  private static StatorServer server;
  private static DynamoDbClient dynamo;
  @TempDir static Path profile;

  @BeforeAll
  static void start() {
    server = StatorServer.start("127.0.0.1", 0, Stator.inMemory());
    dynamo = DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("local", "local")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
    table("Orders", ScalarAttributeType.S);
    for (String sk : List.of("PROFILE", "ORDER#2", "ORDER#10", "ORDER#1")) {
      dynamo.putItem(b -> b.tableName("Orders").item(Map.of(
          "pk", AttributeValue.fromS("CUSTOMER#alice"), "sk", AttributeValue.fromS(sk),
          "note", AttributeValue.fromS("n-" + sk))));
    }
    dynamo.putItem(b -> b.tableName("Orders").item(Map.of(
        "pk", AttributeValue.fromS("CUSTOMER#bob"), "sk", AttributeValue.fromS("PROFILE"))));
    table("Readings", ScalarAttributeType.N);
    for (String sk : List.of("10", "9", "-1.5", "100", "0.25")) {
      dynamo.putItem(b -> b.tableName("Readings").item(Map.of(
          "pk", AttributeValue.fromS("sensor"), "sk", AttributeValue.fromN(sk))));
    }
    table("Daily", ScalarAttributeType.N);
    for (int i = 0; i < 40; i++) {
      int n = i;
      dynamo.putItem(b -> b.tableName("Daily").item(Map.of(
          "pk", AttributeValue.fromS(n % 2 == 0 ? "2026-12-04" : "2026-12-05"),
          "sk", AttributeValue.fromN(Integer.toString(n)))));
    }
    dynamo.createTable(b -> b.tableName("Feed").billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
        .streamSpecification(x -> x.streamEnabled(true)
            .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
    Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("post"));
    dynamo.putItem(b -> b.tableName("Feed").item(Map.of("pk", AttributeValue.fromS("post"),
        "likes", AttributeValue.fromN("1"))));
    dynamo.updateItem(b -> b.tableName("Feed").key(key).updateExpression("SET likes = :n")
        .expressionAttributeValues(Map.of(":n", AttributeValue.fromN("2"))));
    dynamo.deleteItem(b -> b.tableName("Feed").key(key));
    // A skewed load: one customer's items read over and over
    for (int i = 0; i < 300; i++) {
      dynamo.getItem(b -> b.tableName("Orders").key(Map.of(
          "pk", AttributeValue.fromS("CUSTOMER#alice"), "sk", AttributeValue.fromS("PROFILE"))));
    }
  }

  private static void table(String name, ScalarAttributeType sortType) {
    dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(
            a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
            a -> a.attributeName("sk").attributeType(sortType))
        .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH),
            k -> k.attributeName("sk").keyType(KeyType.RANGE)));
  }

  @AfterAll
  static void stop() {
    dynamo.close();
    server.close();
  }

  @Test
  void theConsoleIsServedWithItsFiles() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    for (String path : List.of("/stator/console", "/stator/console/console.js",
        "/stator/console/console.css")) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + server.port() + path)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.body()).isNotBlank();
    }
    server.serveConsole(false);
    try {
      assertThat(http.send(HttpRequest.newBuilder(URI.create(
              "http://127.0.0.1:" + server.port() + "/stator/console")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    } finally {
      server.serveConsole(true);
    }
  }

  @Test
  void theTablesAreListed() throws Exception {
    String dom = render("");
    assertThat(all(dom, "<tr class=\"table-row\"><td><a href=\"#/table/([^\"]+)\""))
        .contains("Daily", "Feed", "Orders", "Readings");
  }

  @Test
  void collectionsAreGroupedAndInSortKeyOrderWithTheirEntityTypes() throws Exception {
    String dom = render("#/table/Orders");
    assertThat(all(dom, "class=\"value partition-key\">([^<]+)<"))
        .containsExactlyInAnyOrder("CUSTOMER#alice", "CUSTOMER#bob");
    // bytes order: ORDER#1 < ORDER#10 < ORDER#2 < PROFILE
    assertThat(sortKeys(dom)).containsSubsequence("ORDER#1", "ORDER#10", "ORDER#2", "PROFILE");
    String legend = all(dom, "<p class=\"legend\">(.*?)</p>").get(0);
    assertThat(legend).contains(">CUSTOMER<").contains(">ORDER<");
    assertThat(all(legend, "background:(#[0-9a-f]+)")).doesNotHaveDuplicates();
    assertThat(sortKeys(render("#/table/Orders?order=desc")))
        .containsSubsequence("PROFILE", "ORDER#2", "ORDER#10", "ORDER#1");
    // numbers by value
    assertThat(sortKeys(render("#/table/Readings")))
        .containsExactly("-1.5", "0.25", "9", "10", "100");
  }

  @Test
  void aLargeTableIsPagedWholeCollectionsAtATime() throws Exception {
    // Pages of one item: each page still shows its collection whole, and the pages together
    // show every collection once
    List<String> seen = new ArrayList<>();
    String fragment = "#/table/Orders?size=1";
    for (int page = 0; fragment != null; page++) {
      assertThat(page).as("pages").isLessThan(3);
      String dom = render(fragment);
      List<String> collections = all(dom, "class=\"value partition-key\">([^<]+)<");
      assertThat(collections).hasSize(1);
      seen.addAll(collections);
      assertThat(sortKeys(dom)).hasSize(collections.get(0).equals("CUSTOMER#alice") ? 4 : 1);
      List<String> next = all(dom, "<a id=\"next-page\" href=\"([^\"]+)\"");
      fragment = next.isEmpty() ? null : text(next.get(0));
    }
    assertThat(seen).containsExactlyInAnyOrder("CUSTOMER#alice", "CUSTOMER#bob");
  }

  @Test
  void theHotKeyShowsInThePartitionView() throws Exception {
    String dom = render("#/table/Orders");
    assertThat(all(dom, "<div class=\"hot-key value\">([^<]+)<").get(0))
        .startsWith("CUSTOMER#alice (");
  }

  @Test
  void theQueryBuilderRunsAKeyConditionAndShowsItsRequest() throws Exception {
    String dom = render("#/query/Orders?pk=CUSTOMER%23alice&op=begins_with&sk=ORDER%23");
    assertThat(all(dom, "<p id=\"query-counts\">([^<]+)<").get(0))
        .startsWith("Count 3 · ScannedCount 3 · consumed 0.5 RCU");
    assertThat(all(dom, "<td class=\"value\">(n-[^<]+)<"))
        .containsExactly("n-ORDER#1", "n-ORDER#10", "n-ORDER#2");
    assertThat(all(dom, "<pre id=\"query-cli\" class=\"value\">([^<]+)<").get(0))
        .contains("aws dynamodb query --endpoint-url http://127.0.0.1:" + server.port())
        .contains("--key-condition-expression '#pk = :pk AND begins_with(#sk, :sk)'")
        .contains("--expression-attribute-values '{\":pk\":{\"S\":\"CUSTOMER#alice\"},"
            + "\":sk\":{\"S\":\"ORDER#\"}}'");

    String page = render("#/query/Orders?pk=CUSTOMER%23alice&op=%3E%3D&sk=ORDER%232&desc=1"
        + "&limit=1");
    assertThat(all(page, "<td class=\"value\">(n-[^<]+)<")).containsExactly("n-PROFILE");
    assertThat(all(page, "<p id=\"query-counts\">([^<]+)<").get(0))
        .startsWith("Count 1 · ScannedCount 1").contains("more follow");
    assertThat(all(page, "<pre id=\"query-cli\" class=\"value\">([^<]+)<").get(0))
        .contains("#sk &gt;= :sk").contains("--no-scan-index-forward").contains("--limit 1");
  }

  @Test
  void theQueryBuildersJavaAndPythonCodeRunsAndReadsWhatTheConsoleRead() throws Exception {
    String dom = render("#/query/Orders?pk=CUSTOMER%23alice&op=begins_with&sk=ORDER%23&desc=1");
    List<String> shown = all(dom, "<td class=\"value\">(n-[^<]+)<");
    assertThat(shown).containsExactly("n-ORDER#2", "n-ORDER#10", "n-ORDER#1");
    Path dir = Files.createTempDirectory(profile, "snippets");

    // Java: compiled by the JDK's compiler against this test's classpath, run in a JVM of its own
    Path source = dir.resolve("QueryExample.java");
    Files.writeString(source, text(all(dom, "<pre id=\"query-java\" class=\"value\">([^<]+)<")
        .get(0)));
    String classpath = System.getProperty("java.class.path");
    assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-classpath", classpath,
        "-d", dir.toString(), source.toString())).as("the Java code compiles").isZero();
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String javaOut = run(List.of(javaBin, "-cp", classpath + File.pathSeparator + dir,
        // the test's classpath holds several HTTP clients; an application would hold one
        "-Dsoftware.amazon.awssdk.http.service.impl="
            + "software.amazon.awssdk.http.urlconnection.UrlConnectionSdkHttpService",
        "QueryExample"));
    assertThat(all(javaOut, "(n-ORDER#\\d+)")).as(javaOut).isEqualTo(shown);

    // Python: run by python3 where it imports boto3
    Path script = dir.resolve("query_example.py");
    Files.writeString(script, text(all(dom, "<pre id=\"query-python\" class=\"value\">([^<]+)<")
        .get(0)));
    String boto3 = run(List.of("python3", "-c", "import boto3; print('boto3')"));
    assumeTrue(boto3.trim().equals("boto3"), "python3 with boto3 is not installed");
    String pythonOut = run(List.of("python3", script.toString()));
    assertThat(all(pythonOut, "(n-ORDER#\\d+)")).as(pythonOut).isEqualTo(shown);
  }

  /** A program's output (and errors), run with any credentials, as a user's shell would have. */
  private static String run(List<String> command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("AWS_ACCESS_KEY_ID", "local");
    builder.environment().put("AWS_SECRET_ACCESS_KEY", "local");
    Process process;
    try {
      process = builder.start();
    } catch (java.io.IOException notInstalled) {
      return "";
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command.get(0)).isTrue();
    return out;
  }

  /** The text of an element as --dump-dom writes it, its entities read back. */
  private static String text(String html) {
    return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&#39;", "'").replace("&amp;", "&");
  }

  @Test
  void theKeyDesignCheckWarnsAsTheGuidesDo() throws Exception {
    assertThat(all(render("#/table/Orders"), "data-warning=\"([^\"]+)\""))
        .containsExactlyInAnyOrder("numeric-strings", "hot-key");
    assertThat(render("#/table/Orders")).contains("such as ORDER#10 and ORDER#2")
        .contains("The key CUSTOMER#alice took");
    assertThat(all(render("#/table/Daily"), "data-warning=\"([^\"]+)\""))
        .containsExactlyInAnyOrder("few-partition-keys", "date-partition-key");
    assertThat(render("#/table/Readings")).contains("No warning for the items and traffic seen.");
  }

  @Test
  void theStreamShowsEachChangeWithItsImages() throws Exception {
    String dom = render("#/table/Feed");
    assertThat(all(dom, "<td class=\"event\">([A-Z]+)<"))
        .containsExactly("INSERT", "MODIFY", "REMOVE");
    assertThat(dom).contains("{likes: 1, pk: post}").contains("{likes: 2, pk: post}");
    assertThat(render("#/table/Orders")).contains("No stream: enable one with UpdateTable.");
  }

  @Test
  void anItemIsEditedAndASaveOverSomeoneElsesChangeIsRefused() throws Exception {
    String chromium = browser();
    Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("CUSTOMER#bob"),
        "sk", AttributeValue.fromS("PROFILE"));
    try (HeadlessChromium page = new HeadlessChromium(chromium, profile.resolve("devtools"))) {
      page.open("http://127.0.0.1:" + server.port() + "/stator/console#/item/Orders?key="
          + java.net.URLEncoder.encode("{\"pk\":{\"S\":\"CUSTOMER#bob\"},"
              + "\"sk\":{\"S\":\"PROFILE\"}}", StandardCharsets.UTF_8));
      page.await("document.getElementById('item-json')", Duration.ofSeconds(30));
      save(page, "item => { item.tier = {S: 'gold'}; return item; }");
      page.await("document.body.dataset.saved === 'ok'", Duration.ofSeconds(30));
      assertThat(dynamo.getItem(b -> b.tableName("Orders").key(key).consistentRead(true)).item())
          .containsEntry("tier", AttributeValue.fromS("gold"));

      // someone else changes the item: the page's next save must not overwrite it
      dynamo.updateItem(b -> b.tableName("Orders").key(key).updateExpression("SET tier = :t")
          .expressionAttributeValues(Map.of(":t", AttributeValue.fromS("platinum"))));
      save(page, "item => { item.tier = {S: 'silver'}; return item; }");
      page.await("document.body.dataset.saved === 'error'", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.getElementById('item-status').textContent"))
          .startsWith("Not saved: the item changed since it was opened");
      assertThat(dynamo.getItem(b -> b.tableName("Orders").key(key).consistentRead(true)).item())
          .containsEntry("tier", AttributeValue.fromS("platinum"));

      // a value of the wrong type is refused by the server, and the page says so
      save(page, "item => { item.n = {N: 'abc'}; return item; }");
      page.await("document.body.dataset.saved === 'error'", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.getElementById('item-status').textContent"))
          .startsWith("Not saved: ValidationException: ");
      save(page, "item => { item.n = {Number: '1'}; return item; }");
      page.await("document.body.dataset.saved === 'error'", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.getElementById('item-status').textContent"))
          .isEqualTo("Not saved: n is not a typed value such as {\"S\": \"text\"} or"
              + " {\"N\": \"1\"}");
    }
  }

  @Test
  void aTableIsCreatedWithAnLsiAndAStreamAndItsSettingsChanged() throws Exception {
    try (HeadlessChromium page = new HeadlessChromium(browser(), profile.resolve("settings"))) {
      String console = "http://127.0.0.1:" + server.port() + "/stator/console";
      page.open(console + "#/");
      page.await("document.getElementById('create-table')", Duration.ofSeconds(30));
      submit(page, "create-table", Map.of("table", "Modeled", "pkName", "customer", "pkType", "S",
          "skName", "order", "skType", "S", "lsi", "ByTotal", "lsiSkName", "total",
          "lsiSkType", "N", "lsiProjection", "KEYS_ONLY", "stream", "NEW_IMAGE"));
      page.await("document.body.dataset.done === 'ok'", Duration.ofSeconds(30));
      var made = dynamo.describeTable(b -> b.tableName("Modeled")).table();
      assertThat(made.localSecondaryIndexes()).singleElement().satisfies(lsi -> {
        assertThat(lsi.indexName()).isEqualTo("ByTotal");
        assertThat(lsi.keySchema()).extracting(k -> k.attributeName() + " " + k.keyTypeAsString())
            .containsExactly("customer HASH", "total RANGE");
        assertThat(lsi.projection().projectionTypeAsString()).isEqualTo("KEYS_ONLY");
      });
      assertThat(made.streamSpecification().streamViewTypeAsString()).isEqualTo("NEW_IMAGE");

      page.open(console + "#/table/Modeled");
      page.await("document.getElementById('table-settings')", Duration.ofSeconds(30));
      submit(page, "table-settings", Map.of("billing", "PROVISIONED", "rcu", "7", "wcu", "3",
          "stream", "", "ttl", "expires"));
      page.await("document.body.dataset.done === 'ok'", Duration.ofSeconds(30));
      var changed = dynamo.describeTable(b -> b.tableName("Modeled")).table();
      assertThat(changed.billingModeSummary().billingModeAsString()).isEqualTo("PROVISIONED");
      assertThat(changed.provisionedThroughput().readCapacityUnits()).isEqualTo(7L);
      assertThat(changed.provisionedThroughput().writeCapacityUnits()).isEqualTo(3L);
      assertThat(changed.streamSpecification()).isNull();
      var ttl = dynamo.describeTimeToLive(b -> b.tableName("Modeled")).timeToLiveDescription();
      assertThat(ttl.attributeName()).isEqualTo("expires");
      assertThat(ttl.timeToLiveStatusAsString()).isEqualTo("ENABLED");
      // The form shows the settings as they now are
      page.await("document.getElementById('table-settings')", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.getElementById('table-settings').elements['ttl'].value"))
          .isEqualTo("expires");
      dynamo.deleteTable(b -> b.tableName("Modeled"));
    }
  }

  @Test
  void aTableIsCreatedGivenAnIndexAndDeleted() throws Exception {
    try (HeadlessChromium page = new HeadlessChromium(browser(), profile.resolve("tables"))) {
      String console = "http://127.0.0.1:" + server.port() + "/stator/console";
      page.open(console + "#/");
      page.await("document.getElementById('create-table')", Duration.ofSeconds(30));
      submit(page, "create-table", Map.of("table", "Made", "pkName", "owner", "pkType", "S",
          "skName", "at", "skType", "N"));
      page.await("document.body.dataset.done === 'ok'", Duration.ofSeconds(30));
      var made = dynamo.describeTable(b -> b.tableName("Made")).table();
      assertThat(made.keySchema()).extracting(k -> k.attributeName() + " " + k.keyTypeAsString())
          .containsExactly("owner HASH", "at RANGE");

      page.open(console + "#/table/Made");
      page.await("document.getElementById('add-gsi')", Duration.ofSeconds(30));
      submit(page, "add-gsi", Map.of("index", "ByAt", "pkName", "at", "pkType", "N",
          "projection", "KEYS_ONLY"));
      page.await("document.body.dataset.done === 'ok'", Duration.ofSeconds(30));
      assertThat(dynamo.describeTable(b -> b.tableName("Made")).table().globalSecondaryIndexes())
          .extracting(g -> g.indexName()).containsExactly("ByAt");
      assertThat(page.evaluate("document.querySelector('#indexes .index td').textContent"))
          .isEqualTo("ByAt");

      submit(page, "delete-table", Map.of("confirm", "made"));
      page.await("document.body.dataset.done === 'error'", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.querySelector('#delete-table .form-status')"
          + ".textContent")).isEqualTo("Type Made to delete it.");
      assertThat(dynamo.listTables().tableNames()).contains("Made");
      submit(page, "delete-table", Map.of("confirm", "Made"));
      page.await("document.body.dataset.done === 'ok'", Duration.ofSeconds(30));
      assertThat(dynamo.listTables().tableNames()).doesNotContain("Made");
    }
  }

  @Test
  void aPartiqlStatementRunsFromTheEditor() throws Exception {
    try (HeadlessChromium page = new HeadlessChromium(browser(), profile.resolve("partiql"))) {
      page.open("http://127.0.0.1:" + server.port() + "/stator/console#/partiql");
      page.await("document.getElementById('partiql-run')", Duration.ofSeconds(30));
      runStatement(page, "SELECT sk FROM \\\"Orders\\\" WHERE pk = 'CUSTOMER#alice'"
          + " AND begins_with(sk, 'ORDER#')");
      page.await("document.body.dataset.done === 'ok'", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.getElementById('partiql-counts').textContent"))
          .isEqualTo("3 item(s) in 1 page(s)");
      assertThat(page.evaluate("JSON.stringify([...document.querySelectorAll("
          + "'#partiql-result td')].map(td => td.textContent))"))
          .isEqualTo("[\"ORDER#1\",\"ORDER#10\",\"ORDER#2\"]");
      runStatement(page, "SELECT * FROM \\\"Nope\\\"");
      page.await("document.body.dataset.done === 'error'", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.querySelector('#partiql-result .error').textContent"))
          .startsWith("ResourceNotFoundException: ");
    }
  }

  @Test
  void thePartitionChartFollowsTheTraffic() throws Exception {
    dynamo.createTable(b -> b.tableName("Chart").billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
    Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("gauge"));
    dynamo.putItem(b -> b.tableName("Chart").item(key));
    String units = "parseFloat(document.querySelector('#partitions .hot-key').textContent"
        + ".match(/\\(([0-9.]+) RCU/)[1])";
    try (HeadlessChromium page = new HeadlessChromium(browser(), profile.resolve("chart"))) {
      page.open("http://127.0.0.1:" + server.port() + "/stator/console#/table/Chart");
      page.await("document.querySelector('#partitions .hot-key')", Duration.ofSeconds(30));
      int partitions = Integer.parseInt(page.evaluate(
          "String(document.querySelectorAll('#partitions tr.partition').length)"));
      assertThat(page.evaluate("String(document.querySelectorAll('#partition-chart rect')"
          + ".length)")).isEqualTo(String.valueOf(2 * partitions));
      assertThat(Double.parseDouble(page.evaluate("String(" + units + ")"))).isLessThan(20);
      // reads after the page opened show in it without a reload
      for (int i = 0; i < 40; i++) {
        dynamo.getItem(b -> b.tableName("Chart").key(key));
      }
      page.await(units + " >= 20", Duration.ofSeconds(30));
      // and the history keeps the quiet samples before them and the busy ones after
      String reads = "document.querySelector('#partition-history polyline[data-kind=read]')"
          + ".getAttribute('data-units').split(' ').map(parseFloat)";
      page.await("(() => { const r = " + reads + "; return r.length >= 2"
          + " && Math.max(...r) > r[0]; })()", Duration.ofSeconds(30));
    } finally {
      dynamo.deleteTable(b -> b.tableName("Chart"));
    }
  }

  private static void runStatement(HeadlessChromium page, String statement) throws Exception {
    page.evaluate("(() => { document.body.dataset.done = '';"
        + " document.getElementById('partiql-statement').value = \"" + statement + "\";"
        + " document.getElementById('partiql-run').click(); return 'run'; })()");
  }

  @Test
  void underSignaturesTheConsoleSignsWithTheKeysGivenIt() throws Exception {
    SigV4 signatures = new SigV4(Credentials.of(List.of(
        new Credential("AKIDCONSOLE", "console-secret", null))), java.time.Clock.systemUTC());
    try (StatorServer secured = StatorServer.start("127.0.0.1", 0, Stator.inMemory(),
            "us-east-1", true, 1, ServerLimits.defaults(), signatures, null);
        DynamoDbClient signer = DynamoDbClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + secured.port()))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(
                AwsBasicCredentials.create("AKIDCONSOLE", "console-secret")))
            .httpClient(UrlConnectionHttpClient.create()).build();
        HeadlessChromium page = new HeadlessChromium(browser(), profile.resolve("signed"))) {
      signer.createTable(b -> b.tableName("Vault").billingMode(BillingMode.PAY_PER_REQUEST)
          .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
          .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
      signer.putItem(b -> b.tableName("Vault").item(Map.of("pk", AttributeValue.fromS("gold"))));
      page.open("http://127.0.0.1:" + secured.port() + "/stator/console#/");
      page.await("document.querySelector('#view .error')", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.querySelector('#view .error').textContent"))
          .startsWith("UnrecognizedClientException");

      page.evaluate("(() => { const f = document.getElementById('credentials');"
          + " f.elements['accessKeyId'].value = 'AKIDCONSOLE';"
          + " f.elements['secretAccessKey'].value = 'console-secret';"
          + " f.requestSubmit(); return 'signed in'; })()");
      page.await("document.querySelector('#tables a')", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.querySelector('#tables a').textContent"))
          .isEqualTo("Vault");
      // the partition report, which needs a signature too, answers the signed page
      page.open("http://127.0.0.1:" + secured.port() + "/stator/console#/table/Vault");
      page.await("document.getElementById('partition-chart')", Duration.ofSeconds(30));
      assertThat(page.evaluate("document.querySelector('.partition-key').textContent"))
          .isEqualTo("gold");
    }
  }

  /** Fills a form's fields by name and submits it, as a user does. */
  private static void submit(HeadlessChromium page, String form, Map<String, String> fields)
      throws Exception {
    StringBuilder js = new StringBuilder("(() => { const f = document.getElementById('")
        .append(form).append("'); document.body.dataset.done = '';");
    for (Map.Entry<String, String> e : fields.entrySet()) {
      js.append(" f.elements['").append(e.getKey()).append("'].value = '")
          .append(e.getValue()).append("';");
    }
    js.append(" f.requestSubmit(); return 'submitted'; })()");
    page.evaluate(js.toString());
  }

  /** Changes the editor's item with a JavaScript function of it, then presses Save. */
  private static void save(HeadlessChromium page, String change) throws Exception {
    page.evaluate("(() => { const t = document.getElementById('item-json');"
        + " document.body.dataset.saved = '';"
        + " t.value = JSON.stringify((" + change + ")(JSON.parse(t.value)));"
        + " document.getElementById('item-save').click(); return 'saving'; })()");
  }

  private static String browser() {
    String chromium = HeadlessChromium.installed();
    if (chromium == null) {
      assertThat("true".equals(System.getenv("STATOR_CONSOLE_REQUIRE_BROWSER")))
          .as("chromium is required but not installed").isFalse();
      assumeTrue(false, "chromium is not installed");
    }
    return chromium;
  }

  private static List<String> sortKeys(String dom) {
    return all(dom, "<td class=\"value sort-key\">(?:<span[^>]*>[^<]*</span>)? ([^<]+)<");
  }

  private static List<String> all(String text, String regex) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** The page's DOM once its requests are answered, as headless Chromium renders it. */
  private static String render(String fragment) throws Exception {
    List<String> command = new ArrayList<>(
        HeadlessChromium.headless(browser(), profile.resolve("profile")));
    command.addAll(List.of("--virtual-time-budget=20000", "--dump-dom",
        "http://127.0.0.1:" + server.port() + "/stator/console" + fragment));
    Path out = Files.createTempFile("console", ".html");
    try {
      Process p = new ProcessBuilder(command)
          .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
      String dom = Files.readString(out, StandardCharsets.UTF_8);
      assertThat(dom).as("the page finished loading").contains("data-ready=\"true\"");
      assertThat(dom).doesNotContain("class=\"error\"");
      return dom;
    } finally {
      Files.delete(out);
    }
  }
}
