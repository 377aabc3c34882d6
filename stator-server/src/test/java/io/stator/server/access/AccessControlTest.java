package io.stator.server.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.server.ServerLimits;
import io.stator.server.StatorServer;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.Consumer;
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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;

/**
 * {@code --auth sigv4} with users and policies, through the AWS SDK: each request is allowed or
 * refused per action, table, index and stream as IAM decides it, with DynamoDB's
 * AccessDeniedException, and a refused request writes nothing.
 */
class AccessControlTest {
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
           {"Effect": "Allow", "Action": ["dynamodb:Get*", "dynamodb:PutItem",
                                          "dynamodb:Query", "dynamodb:BatchWriteItem",
                                          "dynamodb:ConditionCheckItem", "dynamodb:PartiQLSelect",
                                          "dynamodb:DescribeStream", "dynamodb:GetShardIterator"],
            "Resource": ["ARN_Orders", "ARN_Orders/index/ByCustomer", "ARN_Orders/stream/*"]},
           {"Sid": "NoSecrets", "Effect": "Deny", "Action": "dynamodb:*",
            "Resource": "ARN_Secrets*"},
           {"Effect": "Allow", "Action": "dynamodb:ListTables", "Resource": "*"},
           {"Effect": "Allow", "Action": "dynamodb:GetItem", "Resource": "ARN_*"},
           {"Effect": "Allow", "Action": "dynamodb:Query", "Resource": "ARN_Other"}]}},
        {"UserName": "alice",
         "AccessKeys": [{"AccessKeyId": "AKIDALICE", "SecretAccessKey": "alice-secret"}],
         "Policy": {"Version": "2012-10-17", "Statement": [
           {"Effect": "Allow", "Action": ["dynamodb:GetItem", "dynamodb:PutItem",
                                          "dynamodb:Query", "dynamodb:BatchWriteItem",
                                          "dynamodb:PartiQLSelect", "dynamodb:PartiQLUpdate",
                                          "dynamodb:PartiQLInsert"],
            "Resource": "ARN_Orders",
            "Condition": {"ForAllValues:StringEquals":
                            {"dynamodb:LeadingKeys": ["${aws:username}"]}}},
           {"Effect": "Deny", "Action": "dynamodb:PutItem", "Resource": "*",
            "Condition": {"StringEquals": {"dynamodb:ReturnValues": "ALL_OLD"}}},
           {"Effect": "Allow", "Action": "dynamodb:Scan", "Resource": "ARN_Orders",
            "Condition": {"StringEquals": {"dynamodb:Select": "COUNT"}}}]}},
        {"UserName": "carol",
         "AccessKeys": [{"AccessKeyId": "AKIDCAROL", "SecretAccessKey": "carol-secret"}],
         "Policy": {"Version": "2012-10-17", "Statement": [
           {"Effect": "Allow", "Action": ["dynamodb:GetItem", "dynamodb:PutItem",
                                          "dynamodb:UpdateItem", "dynamodb:Query",
                                          "dynamodb:PartiQLSelect", "dynamodb:PartiQLUpdate"],
            "Resource": "ARN_Orders",
            "Condition": {"ForAllValues:StringEquals":
                            {"dynamodb:Attributes": ["id", "customer", "note"]},
                          "StringEqualsIfExists": {"dynamodb:Select": "SPECIFIC_ATTRIBUTES"}}}]}},
        {"UserName": "creator",
         "AccessKeys": [{"AccessKeyId": "AKIDCREATOR", "SecretAccessKey": "creator-secret"}],
         "Policy": {"Version": "2012-10-17", "Statement": [
           {"Effect": "Allow", "Action": ["dynamodb:CreateTable", "dynamodb:ListTables"],
            "Resource": "*"}]}},
        {"UserName": "nobody",
         "AccessKeys": [{"AccessKeyId": "AKIDNOBODY", "SecretAccessKey": "nobody-secret"}]}
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
    server = StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1", true, 1,
        ServerLimits.defaults(), new SigV4(Credentials.read(file), Clock.systemUTC()), null);
    admin = client("AKIDADMIN", "admin-secret");
    orders = client("AKIDORDERS", "orders-secret");
    for (String table : new String[] {"Orders", "Secrets", "Other"}) {
      admin.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
          .attributeDefinitions(
              a -> a.attributeName("id").attributeType(ScalarAttributeType.S),
              a -> a.attributeName("customer").attributeType(ScalarAttributeType.S))
          .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
          .globalSecondaryIndexes(g -> g.indexName("ByCustomer")
              .keySchema(k -> k.attributeName("customer").keyType(KeyType.HASH))
              .projection(p -> p.projectionType(ProjectionType.ALL)))
          .streamSpecification(s -> s.streamEnabled(true)
              .streamViewType(StreamViewType.NEW_IMAGE)));
    }
  }

  @AfterEach
  void stop() {
    admin.close();
    orders.close();
    server.close();
  }

  private DynamoDbClient client(String id, String secret) {
    return DynamoDbClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(id, secret)))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  private static Map<String, AttributeValue> item(String id) {
    return Map.of("id", AttributeValue.fromS(id), "customer", AttributeValue.fromS("alice"));
  }

  private static String denied(Executable call) {
    DynamoDbException e = catchThrowableOfType(() -> {
      try {
        call.execute();
      } catch (Throwable t) {
        throw t instanceof Exception x ? x : new RuntimeException(t);
      }
    }, DynamoDbException.class);
    assertThat(e).as("refused").isNotNull();
    assertThat(e.statusCode()).isEqualTo(400);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
    return e.awsErrorDetails().errorMessage();
  }

  @Test
  void anAllowedActionOnItsTableIsServedAndAnotherTableIsNot() {
    orders.putItem(b -> b.tableName("Orders").item(item("o1")));
    assertThat(orders.getItem(b -> b.tableName("Orders").key(Map.of("id",
        AttributeValue.fromS("o1")))).item()).containsEntry("customer", AttributeValue.fromS("alice"));
    assertThat(denied(() -> orders.putItem(b -> b.tableName("Other").item(item("x")))))
        .isEqualTo("User: arn:aws:iam::000000000000:user/orders is not authorized to perform:"
            + " dynamodb:PutItem on resource: " + ARN + "Other because no identity-based policy"
            + " allows the dynamodb:PutItem action");
    assertThat(admin.scan(b -> b.tableName("Other")).count()).isZero();
    // DeleteItem is not among the allowed actions, on any table
    assertThat(denied(() -> orders.deleteItem(b -> b.tableName("Orders")
        .key(Map.of("id", AttributeValue.fromS("o1")))))).contains("dynamodb:DeleteItem");
    assertThat(admin.scan(b -> b.tableName("Orders")).count()).isOne();
  }

  @Test
  void aTableCreatedWithAResourcePolicyNeedsThePermissionToPutOne() {
    DynamoDbClient creator = client("AKIDCREATOR", "creator-secret");
    Consumer<CreateTableRequest.Builder> table = b -> b.billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH));
    assertThat(denied(() -> creator.createTable(b -> table.accept(b.tableName("Governed")
        .resourcePolicy("{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\":"
            + " \"Allow\", \"Principal\": {\"AWS\": \"*\"}, \"Action\": \"dynamodb:GetItem\","
            + " \"Resource\": \"" + ARN + "Governed\"}]}")))))
        .contains("dynamodb:PutResourcePolicy");
    assertThat(admin.listTables().tableNames()).doesNotContain("Governed");
    creator.createTable(b -> table.accept(b.tableName("Ungoverned")));
    assertThat(admin.listTables().tableNames()).contains("Ungoverned");
  }

  @Test
  void anExplicitDenyWinsOverAnAllow() {
    // GetItem is allowed on every table, and every action denied on Secrets
    assertThat(orders.getItem(b -> b.tableName("Other")
        .key(Map.of("id", AttributeValue.fromS("s")))).hasItem()).isFalse();
    assertThat(denied(() -> orders.getItem(b -> b.tableName("Secrets")
        .key(Map.of("id", AttributeValue.fromS("s"))))))
        .isEqualTo("User: arn:aws:iam::000000000000:user/orders is not authorized to perform:"
            + " dynamodb:GetItem on resource: " + ARN + "Secrets with an explicit deny in an"
            + " identity-based policy");
  }

  @Test
  void aQueryOfAnIndexNeedsTheIndexArn() {
    orders.putItem(b -> b.tableName("Orders").item(item("o1")));
    assertThat(orders.query(b -> b.tableName("Orders").indexName("ByCustomer")
        .keyConditionExpression("customer = :c")
        .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("alice")))).count())
        .isOne();
    // the table's Query is not the index's: Other's table is allowed, not its index
    assertThat(orders.query(b -> b.tableName("Other").keyConditionExpression("id = :c")
        .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("o1")))).count()).isZero();
    assertThat(denied(() -> orders.query(b -> b.tableName("Other").indexName("ByCustomer")
        .keyConditionExpression("customer = :c")
        .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("alice"))))))
        .contains("dynamodb:Query on resource: " + ARN + "Other/index/ByCustomer because");
  }

  @Test
  void aBatchIsAuthorizedPerTableAndARefusedOneWritesNothing() {
    assertThat(denied(() -> orders.batchWriteItem(b -> b.requestItems(Map.of(
        "Orders", java.util.List.of(WriteRequest.builder().putRequest(p -> p.item(item("o2"))).build()),
        "Other", java.util.List.of(WriteRequest.builder().putRequest(p -> p.item(item("x2"))).build()))))))
        .contains("dynamodb:BatchWriteItem on resource: " + ARN + "Other");
    assertThat(admin.scan(b -> b.tableName("Orders")).count()).isZero();
    assertThat(admin.scan(b -> b.tableName("Other")).count()).isZero();
  }

  @Test
  void aTransactionIsAuthorizedPerItemAction() {
    admin.putItem(b -> b.tableName("Orders").item(item("o1")));
    orders.transactWriteItems(b -> b.transactItems(
        t -> t.conditionCheck(c -> c.tableName("Orders")
            .key(Map.of("id", AttributeValue.fromS("o1"))).conditionExpression("attribute_exists(id)")),
        t -> t.put(p -> p.tableName("Orders").item(item("o3")))));
    assertThat(denied(() -> orders.transactWriteItems(b -> b.transactItems(
        t -> t.put(p -> p.tableName("Orders").item(item("o4"))),
        t -> t.delete(d -> d.tableName("Orders").key(Map.of("id", AttributeValue.fromS("o1"))))))))
        .contains("dynamodb:DeleteItem on resource: " + ARN + "Orders");
    assertThat(admin.scan(b -> b.tableName("Orders")).count()).isEqualTo(2);
  }

  @Test
  void aPartiqlStatementIsAuthorizedAsItsForm() {
    admin.putItem(b -> b.tableName("Orders").item(item("o1")));
    assertThat(orders.executeStatement(b -> b.statement("SELECT * FROM \"Orders\" WHERE id = 'o1'"))
        .items()).hasSize(1);
    assertThat(denied(() -> orders.executeStatement(b -> b.statement(
        "INSERT INTO \"Orders\" VALUE {'id': 'o9', 'customer': 'bob'}"))))
        .contains("dynamodb:PartiQLInsert on resource: " + ARN + "Orders");
    assertThat(admin.scan(b -> b.tableName("Orders")).count()).isOne();
  }

  @Test
  void theStreamsApiIsAuthorizedOnTheStreamArn() {
    orders.putItem(b -> b.tableName("Orders").item(item("o1")));
    String ordersStream = admin.describeTable(b -> b.tableName("Orders")).table().latestStreamArn();
    String otherStream = admin.describeTable(b -> b.tableName("Other")).table().latestStreamArn();
    try (DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder()
        .endpointOverride(endpoint()).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("AKIDORDERS", "orders-secret")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build()) {
      int records = 0;
      for (var shard : streams.describeStream(b -> b.streamArn(ordersStream))
          .streamDescription().shards()) {
        String iterator = streams.getShardIterator(b -> b.streamArn(ordersStream)
            .shardId(shard.shardId()).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
            .shardIterator();
        records += streams.getRecords(b -> b.shardIterator(iterator)).records().size();
      }
      assertThat(records).isOne();
      var e = catchThrowableOfType(() -> streams.describeStream(b -> b.streamArn(otherStream)),
          DynamoDbException.class);
      assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
      assertThat(e.awsErrorDetails().errorMessage())
          .contains("dynamodb:DescribeStream on resource: " + otherStream);
    }
  }

  @Test
  void aUserWithoutAPolicyMayDoNothing() {
    try (DynamoDbClient nobody = client("AKIDNOBODY", "nobody-secret")) {
      assertThat(denied(nobody::listTables)).isEqualTo(
          "User: arn:aws:iam::000000000000:user/nobody is not authorized to perform:"
              + " dynamodb:ListTables on resource: * because no identity-based policy allows the"
              + " dynamodb:ListTables action");
      assertThat(denied(() -> nobody.describeTable(b -> b.tableName("Orders"))))
          .contains("dynamodb:DescribeTable on resource: " + ARN + "Orders");
    }
    assertThat(orders.listTables().tableNames()).containsExactly("Orders", "Other", "Secrets");
  }

  @Test
  void conditionsOnLeadingKeysSelectAndReturnValuesAreIams() {
    try (DynamoDbClient alice = client("AKIDALICE", "alice-secret")) {
      alice.putItem(b -> b.tableName("Orders").item(item("alice")));
      assertThat(alice.getItem(b -> b.tableName("Orders")
          .key(Map.of("id", AttributeValue.fromS("alice")))).hasItem()).isTrue();
      assertThat(alice.query(b -> b.tableName("Orders").keyConditionExpression("#k = :v")
          .expressionAttributeNames(Map.of("#k", "id"))
          .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("alice")))).count())
          .isOne();
      assertThat(denied(() -> alice.putItem(b -> b.tableName("Orders").item(item("bob")))))
          .isEqualTo("User: arn:aws:iam::000000000000:user/alice is not authorized to perform:"
              + " dynamodb:PutItem on resource: " + ARN + "Orders because no identity-based"
              + " policy allows the dynamodb:PutItem action");
      denied(() -> alice.query(b -> b.tableName("Orders").keyConditionExpression("id = :v")
          .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("bob")))));
      // one key of another user's refuses the whole batch, and nothing of it is written
      denied(() -> alice.batchWriteItem(b -> b.requestItems(Map.of("Orders", java.util.List.of(
          WriteRequest.builder().putRequest(p -> p.item(item("alice"))).build(),
          WriteRequest.builder().putRequest(p -> p.item(item("bob"))).build())))));
      assertThat(admin.scan(b -> b.tableName("Orders")).count()).isOne();
      // a PartiQL statement's leading keys are read from its text and parameters
      assertThat(alice.executeStatement(b -> b.statement(
          "SELECT * FROM \"Orders\" WHERE id = 'alice'")).items()).hasSize(1);
      assertThat(alice.executeStatement(b -> b.statement(
          "SELECT * FROM \"Orders\" WHERE id = ? AND customer = 'alice'")
          .parameters(AttributeValue.fromS("alice"))).items()).hasSize(1);
      denied(() -> alice.executeStatement(b -> b.statement(
          "SELECT * FROM \"Orders\" WHERE id = ?").parameters(AttributeValue.fromS("bob"))));
      denied(() -> alice.executeStatement(b -> b.statement(
          "SELECT * FROM \"Orders\" WHERE id IN ['alice', 'bob']")));
      // keys only inside an OR, and a SELECT that scans, cannot be judged: refused
      denied(() -> alice.executeStatement(b -> b.statement(
          "SELECT * FROM \"Orders\" WHERE id = 'alice' OR id = 'bob'")));
      denied(() -> alice.executeStatement(b -> b.statement("SELECT * FROM \"Orders\"")));
      alice.executeStatement(b -> b.statement(
          "UPDATE \"Orders\" SET note = 'mine' WHERE id = 'alice'"));
      denied(() -> alice.executeStatement(b -> b.statement(
          "UPDATE \"Orders\" SET note = 'mine' WHERE id = 'bob'")));
      denied(() -> alice.executeStatement(b -> b.statement("INSERT INTO \"Orders\" VALUE ?")
          .parameters(AttributeValue.fromM(item("bob")))));
      denied(() -> alice.batchExecuteStatement(b -> b.statements(
          s -> s.statement("SELECT * FROM \"Orders\" WHERE id = 'alice'"),
          s -> s.statement("SELECT * FROM \"Orders\" WHERE id = 'bob'"))));
      assertThat(admin.getItem(b -> b.tableName("Orders")
          .key(Map.of("id", AttributeValue.fromS("bob")))).hasItem()).isFalse();
      assertThat(denied(() -> alice.putItem(b -> b.tableName("Orders").item(item("alice"))
          .returnValues("ALL_OLD")))).endsWith("with an explicit deny in an identity-based policy");
      assertThat(alice.scan(b -> b.tableName("Orders").select("COUNT")).count()).isOne();
      denied(() -> alice.scan(b -> b.tableName("Orders")));
    }
  }

  @Test
  void conditionsOnAttributesNameEveryAttributeARequestTouches() {
    admin.putItem(b -> b.tableName("Orders").item(Map.of("id", AttributeValue.fromS("o1"),
        "customer", AttributeValue.fromS("carol"), "secret", AttributeValue.fromS("s"))));
    Map<String, AttributeValue> key = Map.of("id", AttributeValue.fromS("o1"));
    try (DynamoDbClient carol = client("AKIDCAROL", "carol-secret")) {
      assertThat(carol.getItem(b -> b.tableName("Orders").key(key)
          .projectionExpression("id, customer")).item()).containsOnlyKeys("id", "customer");
      // no projection reads every attribute, the secret one too
      denied(() -> carol.getItem(b -> b.tableName("Orders").key(key)));
      denied(() -> carol.getItem(b -> b.tableName("Orders").key(key)
          .projectionExpression("id, #s").expressionAttributeNames(Map.of("#s", "secret"))));

      carol.putItem(b -> b.tableName("Orders").item(Map.of("id", AttributeValue.fromS("o2"),
          "note", AttributeValue.fromS("n"))));
      denied(() -> carol.putItem(b -> b.tableName("Orders").item(Map.of(
          "id", AttributeValue.fromS("o3"), "secret", AttributeValue.fromS("x")))));
      denied(() -> carol.putItem(b -> b.tableName("Orders").item(Map.of(
          "id", AttributeValue.fromS("o3"))).conditionExpression("attribute_not_exists(secret)")));
      assertThat(admin.getItem(b -> b.tableName("Orders")
          .key(Map.of("id", AttributeValue.fromS("o3")))).hasItem()).isFalse();

      carol.updateItem(b -> b.tableName("Orders").key(key).updateExpression("SET note = :n")
          .expressionAttributeValues(Map.of(":n", AttributeValue.fromS("seen"))));
      denied(() -> carol.updateItem(b -> b.tableName("Orders").key(key)
          .updateExpression("SET note = #s").expressionAttributeNames(Map.of("#s", "secret"))));
      denied(() -> carol.updateItem(b -> b.tableName("Orders").key(key)
          .updateExpression("SET note = :n").returnValues("ALL_NEW")
          .expressionAttributeValues(Map.of(":n", AttributeValue.fromS("n")))));
      assertThat(admin.getItem(b -> b.tableName("Orders").key(key)).item().get("note").s())
          .isEqualTo("seen");

      assertThat(carol.query(b -> b.tableName("Orders").keyConditionExpression("id = :v")
          .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("o1")))
          .select("SPECIFIC_ATTRIBUTES").projectionExpression("note")).items())
          .containsExactly(Map.of("note", AttributeValue.fromS("seen")));
      denied(() -> carol.query(b -> b.tableName("Orders").keyConditionExpression("id = :v")
          .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("o1")))));
      denied(() -> carol.query(b -> b.tableName("Orders").keyConditionExpression("id = :v")
          .filterExpression("size(secret) > :n").projectionExpression("note")
          .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("o1"),
              ":n", AttributeValue.fromN("0")))));

      // PartiQL: the attributes a statement names, read from its text
      assertThat(carol.executeStatement(b -> b.statement(
          "SELECT id, note FROM \"Orders\" WHERE id = 'o1'")).items()).hasSize(1);
      denied(() -> carol.executeStatement(b -> b.statement(
          "SELECT * FROM \"Orders\" WHERE id = 'o1'")));
      denied(() -> carol.executeStatement(b -> b.statement(
          "SELECT note FROM \"Orders\" WHERE id = 'o1' AND secret = 's'")));
      carol.executeStatement(b -> b.statement(
          "UPDATE \"Orders\" SET note = 'partiql' WHERE id = 'o1'"));
      denied(() -> carol.executeStatement(b -> b.statement(
          "UPDATE \"Orders\" SET secret = 'p' WHERE id = 'o1'")));
      assertThat(admin.getItem(b -> b.tableName("Orders").key(key)).item())
          .containsEntry("note", AttributeValue.fromS("partiql"))
          .containsEntry("secret", AttributeValue.fromS("s"));
    }
  }

  @Test
  void aResourcePolicyAllowsAndDeniesBesideTheUsersOwn() {
    admin.putItem(b -> b.tableName("Other").item(item("x")));
    try (DynamoDbClient nobody = client("AKIDNOBODY", "nobody-secret")) {
      var get = (Executable) () -> nobody.getItem(b -> b.tableName("Other")
          .key(Map.of("id", AttributeValue.fromS("x"))));
      denied(get);
      admin.putResourcePolicy(b -> b.resourceArn(ARN + "Other").policy("""
          {"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::000000000000:user/nobody"},
             "Action": ["dynamodb:GetItem", "dynamodb:Query"],
             "Resource": ["ARN_Other", "ARN_Other/index/*"]},
            {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem",
             "Resource": "ARN_Other",
             "Condition": {"ForAnyValue:StringEquals": {"dynamodb:LeadingKeys": ["secret"]}}}]}
          """.replace("ARN_", ARN)));
      assertThat(nobody.getItem(b -> b.tableName("Other")
          .key(Map.of("id", AttributeValue.fromS("x")))).hasItem()).isTrue();
      assertThat(nobody.query(b -> b.tableName("Other").indexName("ByCustomer")
          .keyConditionExpression("customer = :c")
          .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("alice")))).count())
          .isOne();
      denied(() -> nobody.putItem(b -> b.tableName("Other").item(item("y"))));
      // the resource policy's Deny binds a user whose own policy allows GetItem everywhere
      assertThat(denied(() -> orders.getItem(b -> b.tableName("Other")
          .key(Map.of("id", AttributeValue.fromS("secret"))))))
          .endsWith("with an explicit deny in a resource-based policy");
    }
  }
}
