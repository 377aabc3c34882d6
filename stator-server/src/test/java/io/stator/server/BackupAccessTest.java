package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.engine.EngineOptions;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import io.stator.storage.memory.MemoryStorage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ImportTableRequest;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The backup, export and import operations under {@code --auth sigv4} with users and policies, through the AWS SDK:
 * each needs its own action on the table or backup as DynamoDB's IAM documents it, and a restore
 * the item actions on the new table, so a key that may not read a table can neither back it up
 * nor restore its backup to a table it may read; a refused request makes nothing.
 */
class BackupAccessTest {
  private static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/";
  private static final String USERS = """
      {"Users": [
        {"UserName": "admin",
         "AccessKeys": [{"AccessKeyId": "AKIDADMIN", "SecretAccessKey": "admin-secret"}],
         "Policy": {"Version": "2012-10-17",
                    "Statement": {"Effect": "Allow", "Action": "*", "Resource": "*"}}},
        {"UserName": "orders",
         "AccessKeys": [{"AccessKeyId": "AKIDORDERS", "SecretAccessKey": "orders-secret"}],
         "Policy": {"Version": "2012-10-17", "Statement": [
           {"Effect": "Allow", "Action": "dynamodb:*",
            "Resource": ["ARN_Orders*"]},
           {"Effect": "Allow", "Action": "dynamodb:ListBackups", "Resource": "*"}]}}
      ]}
      """.replace("ARN_", ARN);

  @TempDir Path directory;
  private StatorServer server;
  private DynamoDbClient admin;
  private DynamoDbClient orders;

  @BeforeEach
  void start() throws Exception {
    Path file = directory.resolve("users.json");
    Files.writeString(file, USERS);
    server = StatorServer.start("127.0.0.1", 0, Stator.open(new MemoryStorage(),
            EngineOptions.defaults().withExportDirectory(directory.resolve("exports"))),
        "us-east-1", true, 1,
        ServerLimits.defaults(), new SigV4(Credentials.read(file), Clock.systemUTC()), null);
    admin = client("AKIDADMIN", "admin-secret");
    orders = client("AKIDORDERS", "orders-secret");
    for (String table : new String[] {"Orders", "Secrets"}) {
      admin.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
          .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
          .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
      admin.putItem(r -> r.tableName(table)
          .item(java.util.Map.of("id", software.amazon.awssdk.services.dynamodb.model
              .AttributeValue.fromS("a"))));
    }
  }

  @AfterEach
  void stop() {
    admin.close();
    orders.close();
    server.close();
  }

  private DynamoDbClient client(String id, String secret) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(id, secret)))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private static void denied(String action, String resource, Executable call) {
    DynamoDbException e = catchThrowableOfType(DynamoDbException.class, call::execute);
    assertThat(e).as("%s on %s", action, resource).isNotNull();
    assertThat(e.statusCode()).isEqualTo(400);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
    assertThat(e.awsErrorDetails().errorMessage())
        .contains("perform: " + action + " on resource: " + resource);
  }

  @Test
  void eachBackupOperationNeedsItsActionOnItsTableOrBackup() {
    String ordersBackup = orders.createBackup(r -> r.tableName("Orders").backupName("mine"))
        .backupDetails().backupArn();
    denied("dynamodb:CreateBackup", ARN + "Secrets",
        () -> orders.createBackup(r -> r.tableName("Secrets").backupName("theirs")));
    assertThat(admin.listBackups(r -> r.tableName("Secrets")).backupSummaries()).isEmpty();

    String secretsBackup = admin.createBackup(r -> r.tableName("Secrets").backupName("kept"))
        .backupDetails().backupArn();
    denied("dynamodb:DescribeBackup", secretsBackup,
        () -> orders.describeBackup(r -> r.backupArn(secretsBackup)));
    denied("dynamodb:DeleteBackup", secretsBackup,
        () -> orders.deleteBackup(r -> r.backupArn(secretsBackup)));
    // Restoring another table's backup into a name the key may read is refused, making nothing.
    denied("dynamodb:RestoreTableFromBackup", secretsBackup,
        () -> orders.restoreTableFromBackup(r -> r.targetTableName("Orders-stolen")
            .backupArn(secretsBackup)));
    assertThat(admin.listTables().tableNames()).doesNotContain("Orders-stolen");
    // And its own backup into a name it may not write.
    denied("dynamodb:BatchWriteItem", ARN + "Elsewhere",
        () -> orders.restoreTableFromBackup(r -> r.targetTableName("Elsewhere")
            .backupArn(ordersBackup)));

    assertThat(orders.describeBackup(r -> r.backupArn(ordersBackup)).backupDescription()
        .backupDetails().backupName()).isEqualTo("mine");
    assertThat(orders.restoreTableFromBackup(r -> r.targetTableName("Orders-copy")
        .backupArn(ordersBackup)).tableDescription().tableName()).isEqualTo("Orders-copy");
    assertThat(orders.listBackups(r -> r.tableName("Secrets")).backupSummaries()).hasSize(1);
    assertThat(admin.describeBackup(r -> r.backupArn(secretsBackup)).backupDescription()
        .backupDetails().backupStatus().toString()).isEqualTo("AVAILABLE");
  }

  @Test
  void eachExportOperationNeedsItsActionOnItsTableOrExport() {
    for (String table : new String[] {"Orders", "Secrets"}) {
      admin.updateContinuousBackups(r -> r.tableName(table)
          .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
    }
    String mine = orders.exportTableToPointInTime(r -> r.tableArn(ARN + "Orders")
        .s3Bucket("mine")).exportDescription().exportArn();
    denied("dynamodb:ExportTableToPointInTime", ARN + "Secrets",
        () -> orders.exportTableToPointInTime(r -> r.tableArn(ARN + "Secrets")
            .s3Bucket("stolen")));
    assertThat(Files.exists(directory.resolve("exports").resolve("stolen"))).isFalse();
    String theirs = admin.exportTableToPointInTime(r -> r.tableArn(ARN + "Secrets")
        .s3Bucket("kept")).exportDescription().exportArn();
    denied("dynamodb:DescribeExport", theirs,
        () -> orders.describeExport(r -> r.exportArn(theirs)));
    denied("dynamodb:ListExports", "*", () -> orders.listExports(r -> r.maxResults(5)));
    assertThat(orders.describeExport(r -> r.exportArn(mine)).exportDescription().tableArn())
        .isEqualTo(ARN + "Orders");
    assertThat(admin.listExports(r -> r.maxResults(5)).exportSummaries()).hasSize(2);
  }

  @Test
  void eachImportOperationNeedsItsActionOnItsNewTableOrImport() throws Exception {
    Path file = directory.resolve("exports").resolve("in").resolve("items.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"Item\":{\"id\":{\"S\":\"a\"}}}\n");
    java.util.function.Function<String, ImportTableRequest> into = table -> ImportTableRequest
        .builder().s3BucketSource(b -> b.s3Bucket("in")).inputFormat(InputFormat.DYNAMODB_JSON)
        .tableCreationParameters(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
            .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
            .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)))
        .build();
    String mine = orders.importTable(into.apply("Orders-imported")).importTableDescription()
        .importArn();
    denied("dynamodb:ImportTable", ARN + "Elsewhere",
        () -> orders.importTable(into.apply("Elsewhere")));
    assertThat(admin.listTables().tableNames()).doesNotContain("Elsewhere");
    String theirs = admin.importTable(into.apply("Secrets-imported")).importTableDescription()
        .importArn();
    denied("dynamodb:DescribeImport", theirs,
        () -> orders.describeImport(r -> r.importArn(theirs)));
    denied("dynamodb:ListImports", "*", () -> orders.listImports(r -> r.pageSize(5)));
    assertThat(orders.describeImport(r -> r.importArn(mine)).importTableDescription().tableArn())
        .isEqualTo(ARN + "Orders-imported");
  }
}
