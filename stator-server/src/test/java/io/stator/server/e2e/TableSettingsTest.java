package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsStatus;
import software.amazon.awssdk.services.dynamodb.model.DescribeLimitsResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.Endpoint;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.SSEStatus;
import software.amazon.awssdk.services.dynamodb.model.SSEType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The table settings and small operations that infrastructure tools call, through the AWS SDK:
 * deletion protection, tags, the point-in-time recovery flag, table class, server-side
 * encryption, DescribeLimits and DescribeEndpoints.
 */
class TableSettingsTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  private TableDescription createWith(String name,
      java.util.function.Consumer<
          software.amazon.awssdk.services.dynamodb.model.CreateTableRequest.Builder> settings) {
    dynamo.createTable(b -> {
      b.tableName(name).keySchema(key("id", KeyType.HASH)).attributeDefinitions(attribute("id", S))
          .billingMode(BillingMode.PAY_PER_REQUEST);
      settings.accept(b);
    });
    awaitActive(name);
    return dynamo.describeTable(r -> r.tableName(name)).table();
  }

  @Test
  void deletionProtectionRefusesDeleteTableUntilDisabled() {
    String name = uniqueTableName("protected");
    TableDescription created = createWith(name, b -> b.deletionProtectionEnabled(true));
    assertThat(created.deletionProtectionEnabled()).isTrue();
    assertValidation("Resource cannot be deleted as it is currently protected against deletion."
            + " Disable deletion protection first.",
        () -> dynamo.deleteTable(r -> r.tableName(name)));
    TableDescription updated = dynamo.updateTable(r -> r.tableName(name)
        .deletionProtectionEnabled(false)).tableDescription();
    assertThat(updated.deletionProtectionEnabled()).isFalse();
    dynamo.deleteTable(r -> r.tableName(name));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + name + " not found",
        () -> dynamo.describeTable(r -> r.tableName(name)));
  }

  @Test
  void tagsFromCreateTableAndTagResourceAreListedInPages() {
    String name = uniqueTableName("tags");
    String arn = createWith(name, b -> b.tags(tag("env", "test"))).tableArn();
    List<Tag> more = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      more.add(tag(String.format("key-%02d", i), "value " + i));
    }
    dynamo.tagResource(r -> r.resourceArn(arn).tags(more));
    dynamo.tagResource(r -> r.resourceArn(arn).tags(tag("env", "prod")));
    List<Tag> listed = new ArrayList<>();
    String token = null;
    do {
      String from = token;
      ListTagsOfResourceResponse page =
          dynamo.listTagsOfResource(r -> r.resourceArn(arn).nextToken(from));
      listed.addAll(page.tags());
      token = page.nextToken();
    } while (token != null);
    assertThat(listed).hasSize(21).containsAll(more).contains(tag("env", "prod"))
        .doesNotContain(tag("env", "test"));

    dynamo.untagResource(r -> r.resourceArn(arn).tagKeys("env", "key-00", "never-set"));
    List<Tag> afterUntag = dynamo.listTagsOfResource(r -> r.resourceArn(arn)).tags();
    assertThat(afterUntag).doesNotContain(tag("env", "prod"), tag("key-00", "value 0"));
  }

  @Test
  void tagErrors() {
    String name = uniqueTableName("tag-errors");
    String arn = createWith(name, b -> { }).tableArn();
    // A well-formed ARN of a table that is not there: refused by authorization, as DynamoDB
    // refuses it, for each of the three operations; and nothing is made.
    String missing = arn + "-missing";
    for (String operation : List.of("TagResource", "UntagResource", "ListTagsOfResource")) {
      assertError(DynamoDbException.class, "AccessDeniedException",
          "User: arn:aws:iam::000000000000:user/stator is not authorized to perform: dynamodb:"
              + operation + " on resource: " + missing + " because no resource-based policy"
              + " allows the dynamodb:" + operation + " action",
          () -> tagOperation(operation, missing));
    }
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + name + "-missing not found",
        () -> dynamo.describeTable(r -> r.tableName(name + "-missing")));
    // Not a table's ARN, in DynamoDB's words for each way of being wrong.
    String prefix = arn.substring(0, arn.indexOf(":table/"));
    Map<String, String> notTables = new LinkedHashMap<>();
    notTables.put(name, "One or more parameter values were invalid: ARNs must start with 'arn:': "
        + name);
    notTables.put("arn:aws:s3:::bucket/key", "One or more parameter values were invalid:"
        + " Provided Arn is not a DynamoDB resource arn: arn:aws:s3:::bucket/key");
    notTables.put(arn + "/index/byDate", "One or more parameter values were invalid: Invalid"
        + " resource arn provided, only table or stream is accepted. Provided resource arn: "
        + arn + "/index/byDate");
    String otherRegion = arn.replace(":us-east-1:", ":eu-west-1:");
    notTables.put(otherRegion, "Invalid TableArn: Invalid ResourceArn provided as input "
        + otherRegion);
    notTables.put(prefix + ":table/ab", "Invalid TableArn: Invalid ResourceArn provided as"
        + " input " + prefix + ":table/ab");
    notTables.forEach((notTable, message) -> {
      for (String operation : List.of("TagResource", "UntagResource", "ListTagsOfResource")) {
        assertValidation(message, () -> tagOperation(operation, notTable));
      }
    });
    assertValidation("Atleast one Tag needs to be provided as Input.",
        () -> dynamo.tagResource(r -> r.resourceArn(arn).tags(List.of())));
    assertValidation("1 validation error detected: Value '" + "k".repeat(129)
            + "' at 'tags.1.member.key' failed to satisfy constraint: Member must have length"
            + " less than or equal to 128",
        () -> dynamo.tagResource(r -> r.resourceArn(arn).tags(tag("k".repeat(129), "v"))));
    assertValidation("1 validation error detected: Value '" + "v".repeat(257)
            + "' at 'tags.1.member.value' failed to satisfy constraint: Member must have length"
            + " less than or equal to 256",
        () -> dynamo.tagResource(r -> r.resourceArn(arn).tags(tag("k", "v".repeat(257)))));
    // Characters other than those DynamoDB allows, the aws: prefix, a key given twice.
    assertValidation("The Tag Key provided is invalid, Key: ->>;-)])",
        () -> dynamo.tagResource(r -> r.resourceArn(arn).tags(tag("->>;-)])", "ok"))));
    assertValidation("The Tag Value provided is invalid, Value: #!%^$&",
        () -> dynamo.tagResource(r -> r.resourceArn(arn).tags(tag("ok", "#!%^$&"))));
    assertValidation("The Tag Key provided is invalid, Key: a|b",
        () -> dynamo.untagResource(r -> r.resourceArn(arn).tagKeys("ok", "a|b")));
    assertValidation("Tag Key cannot be prefixed with aws:, Key: aws:owner",
        () -> dynamo.tagResource(r -> r.resourceArn(arn).tags(tag("aws:owner", "me"))));
    assertValidation("Duplicate Tag Keys provided as input: Duplicate Tag Key found env",
        () -> dynamo.tagResource(r -> r.resourceArn(arn)
            .tags(tag("env", "a"), tag("env", "b"))));
    assertThat(dynamo.listTagsOfResource(r -> r.resourceArn(arn)).tags()).isEmpty();
  }

  @Test
  void tagsTakeDynamoDbsCharactersAndLengthsAndReplaceTheirValue() throws Exception {
    String name = uniqueTableName("tag-rules");
    String arn = createWith(name, b -> { }).tableArn();
    List<Tag> tags = List.of(tag("k".repeat(128), "v".repeat(256)), tag("empty", ""),
        tag("Ünïcode key 7", "ѮѮ value"), tag("all _.:/=+-@", " "));
    dynamo.tagResource(r -> r.resourceArn(arn).tags(tags));
    assertThat(dynamo.listTagsOfResource(r -> r.resourceArn(arn)).tags())
        .containsExactlyInAnyOrderElementsOf(tags);
    // Tagging a key again replaces its value; the answer of TagResource and UntagResource is
    // an empty body, as DynamoDB's.
    HttpResponse<String> tagged = post("TagResource", "{\"ResourceArn\":\"" + arn
        + "\",\"Tags\":[{\"Key\":\"empty\",\"Value\":\"now set\"}]}");
    assertThat(tagged.statusCode()).isEqualTo(200);
    assertThat(tagged.body()).isEmpty();
    assertThat(dynamo.listTagsOfResource(r -> r.resourceArn(arn)).tags())
        .contains(tag("empty", "now set")).doesNotContain(tag("empty", ""))
        .hasSize(tags.size());
    HttpResponse<String> untagged = post("UntagResource", "{\"ResourceArn\":\"" + arn
        + "\",\"TagKeys\":[\"empty\",\"never-set\"]}");
    assertThat(untagged.statusCode()).isEqualTo(200);
    assertThat(untagged.body()).isEmpty();
    assertThat(dynamo.listTagsOfResource(r -> r.resourceArn(arn)).tags())
        .hasSize(tags.size() - 1).noneMatch(t -> t.key().equals("empty"));
  }

  private void tagOperation(String operation, String arn) {
    switch (operation) {
      case "TagResource" -> dynamo.tagResource(r -> r.resourceArn(arn).tags(tag("a", "b")));
      case "UntagResource" -> dynamo.untagResource(r -> r.resourceArn(arn).tagKeys("a"));
      default -> dynamo.listTagsOfResource(r -> r.resourceArn(arn));
    }
  }

  private HttpResponse<String> post(String operation, String body) throws Exception {
    return HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(endpoint.uri() + "/"))
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "DynamoDB_20120810." + operation)
            .header("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/"
                + "dynamodb/aws4_request, SignedHeaders=host, Signature=0")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void pointInTimeRecoveryFlag() {
    String name = uniqueTableName("pitr");
    createWith(name, b -> { });
    ContinuousBackupsDescription initial =
        dynamo.describeContinuousBackups(r -> r.tableName(name)).continuousBackupsDescription();
    assertThat(initial.continuousBackupsStatus()).isEqualTo(ContinuousBackupsStatus.ENABLED);
    assertThat(initial.pointInTimeRecoveryDescription().pointInTimeRecoveryStatus())
        .isEqualTo(PointInTimeRecoveryStatus.DISABLED);

    PointInTimeRecoveryDescription enabled = dynamo.updateContinuousBackups(r -> r.tableName(name)
            .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)
                .recoveryPeriodInDays(10)))
        .continuousBackupsDescription().pointInTimeRecoveryDescription();
    assertThat(enabled.pointInTimeRecoveryStatus()).isEqualTo(PointInTimeRecoveryStatus.ENABLED);
    assertThat(enabled.recoveryPeriodInDays()).isEqualTo(10);
    assertThat(enabled.earliestRestorableDateTime()).isNotNull();
    assertThat(enabled.latestRestorableDateTime())
        .isAfterOrEqualTo(enabled.earliestRestorableDateTime());
    assertThat(dynamo.describeContinuousBackups(r -> r.tableName(name))
            .continuousBackupsDescription().pointInTimeRecoveryDescription()
            .pointInTimeRecoveryStatus())
        .isEqualTo(PointInTimeRecoveryStatus.ENABLED);

    assertError(TableNotFoundException.class, "TableNotFoundException",
        "Table not found: " + name + "-missing",
        () -> dynamo.describeContinuousBackups(r -> r.tableName(name + "-missing")));
  }

  @Test
  void tableClassAndEncryptionAreDescribed() {
    String name = uniqueTableName("class");
    TableDescription created = createWith(name, b -> b
        .tableClass(TableClass.STANDARD_INFREQUENT_ACCESS)
        .sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS)));
    assertThat(created.tableClassSummary().tableClass())
        .isEqualTo(TableClass.STANDARD_INFREQUENT_ACCESS);
    assertThat(created.sseDescription().status()).isEqualTo(SSEStatus.ENABLED);
    assertThat(created.sseDescription().sseType()).isEqualTo(SSEType.KMS);
    assertThat(created.sseDescription().kmsMasterKeyArn()).startsWith("arn:aws:kms:");

    TableDescription updated = dynamo.updateTable(r -> r.tableName(name)
        .tableClass(TableClass.STANDARD)).tableDescription();
    assertThat(updated.tableClassSummary().tableClass()).isEqualTo(TableClass.STANDARD);
    assertThat(updated.tableClassSummary().lastUpdateDateTime()).isNotNull();

    String plain = uniqueTableName("plain");
    TableDescription d = createWith(plain, b -> { });
    assertThat(d.sseDescription()).as("default encryption is not described").isNull();
    assertThat(d.deletionProtectionEnabled()).isFalse();
  }

  @Test
  void limitsAndEndpoints() {
    assumeThat(target).isNotEqualTo(Target.EXTERNAL);
    DescribeLimitsResponse limits = dynamo.describeLimits(r -> { });
    assertThat(limits.accountMaxReadCapacityUnits()).isEqualTo(80_000L);
    assertThat(limits.accountMaxWriteCapacityUnits()).isEqualTo(80_000L);
    assertThat(limits.tableMaxReadCapacityUnits()).isEqualTo(40_000L);
    assertThat(limits.tableMaxWriteCapacityUnits()).isEqualTo(40_000L);
    List<Endpoint> endpoints = dynamo.describeEndpoints(r -> { }).endpoints();
    assertThat(endpoints).containsExactly(Endpoint.builder()
        .address(endpoint.uri().getHost() + ":" + endpoint.uri().getPort())
        .cachePeriodInMinutes(1440L).build());
  }

  @Test
  void aBatchOverTheLimitHasAShortMessage() {
    String table = createTable("batch-message", "id", S);
    List<WriteRequest> writes = new ArrayList<>();
    for (int i = 0; i < 26; i++) {
      writes.add(WriteRequest.builder().putRequest(PutRequest.builder()
          .item(item("id", s("k" + i), "payload", s(repeat("x", 10_000)))).build()).build());
    }
    DynamoDbException e = assertValidationContaining("' at 'requestItems' failed to satisfy"
            + " constraint: Map value must satisfy constraint: [Member must have length less than"
            + " or equal to 25, Member must have length greater than or equal to 1]",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, writes))));
    assertThat(e.awsErrorDetails().errorMessage())
        .startsWith("1 validation error detected: Value '{" + table + "=[com.amazonaws.dynamodb"
            + ".v20120810.WriteRequest@")
        .doesNotContain("xxxxx")
        .hasSizeLessThan(2_500);
  }

  private static Tag tag(String key, String value) {
    return Tag.builder().key(key).value(value).build();
  }
}
