package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PolicyNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy through the AWS SDK: revisions,
 * their guards, idempotent puts and deletes, and a policy that does not outlive its table.
 */
class ResourcePolicyTest extends EndToEndTest {
  private static final String POLICY = """
      {"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
       "Principal": {"AWS": "arn:aws:iam::000000000000:user/reader"},
       "Action": "dynamodb:GetItem", "Resource": "%s"}]}""";

  @BeforeEach
  void onlyStator() {
    assumeThat(target).isNotEqualTo(Target.EXTERNAL);
  }

  private String arn(String table) {
    return dynamo.describeTable(b -> b.tableName(table)).table().tableArn();
  }

  @Test
  void aPolicyIsPutReadReplacedAndDeletedByRevision() {
    String table = createTable("policies", "pk", ScalarAttributeType.S);
    String arn = arn(table);
    assertThat(catchThrowableOfType(() -> dynamo.getResourcePolicy(b -> b.resourceArn(arn)),
        PolicyNotFoundException.class).awsErrorDetails().errorMessage())
        .isEqualTo("Resource-based policy not found for the provided ResourceArn: " + arn);

    String document = POLICY.formatted(arn);
    String first = dynamo.putResourcePolicy(b -> b.resourceArn(arn).policy(document)
        .expectedRevisionId("NO_POLICY")).revisionId();
    assertThat(first).matches("[0-9]+");
    var read = dynamo.getResourcePolicy(b -> b.resourceArn(arn));
    assertThat(read.policy()).isEqualTo(document);
    assertThat(read.revisionId()).isEqualTo(first);
    // the same document again keeps its revision
    assertThat(dynamo.putResourcePolicy(b -> b.resourceArn(arn).policy(document)).revisionId())
        .isEqualTo(first);

    assertThat(catchThrowableOfType(() -> dynamo.putResourcePolicy(b -> b.resourceArn(arn)
        .policy(document).expectedRevisionId("NO_POLICY")), PolicyNotFoundException.class)
        .awsErrorDetails().errorMessage()).contains("a policy exists with revision id " + first);
    String changed = document.replace("GetItem", "Query");
    assertThat(catchThrowableOfType(() -> dynamo.putResourcePolicy(b -> b.resourceArn(arn)
        .policy(changed).expectedRevisionId("123")), PolicyNotFoundException.class)
        .awsErrorDetails().errorMessage()).contains("has revision id " + first);
    String second = dynamo.putResourcePolicy(b -> b.resourceArn(arn).policy(changed)
        .expectedRevisionId(first)).revisionId();
    assertThat(second).isNotEqualTo(first);
    assertThat(dynamo.getResourcePolicy(b -> b.resourceArn(arn)).policy()).isEqualTo(changed);

    assertThat(dynamo.deleteResourcePolicy(b -> b.resourceArn(arn)).revisionId())
        .isEqualTo(second);
    assertThat(dynamo.deleteResourcePolicy(b -> b.resourceArn(arn)).revisionId()).isNull();
    catchThrowableOfType(() -> dynamo.getResourcePolicy(b -> b.resourceArn(arn)),
        PolicyNotFoundException.class);
  }

  @Test
  void aPolicyGoesWithItsTable() {
    String table = createTable("policies", "pk", ScalarAttributeType.S);
    String arn = arn(table);
    dynamo.putResourcePolicy(b -> b.resourceArn(arn).policy(POLICY.formatted(arn)));
    dynamo.deleteTable(b -> b.tableName(table));
    assertThat(catchThrowableOfType(() -> dynamo.getResourcePolicy(b -> b.resourceArn(arn)),
        ResourceNotFoundException.class)).isNotNull();
    dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
        .keySchema(key("pk", KeyType.HASH)).attributeDefinitions(attribute("pk",
            ScalarAttributeType.S)));
    awaitActive(table);
    assertThat(catchThrowableOfType(() -> dynamo.getResourcePolicy(b -> b.resourceArn(arn)),
        PolicyNotFoundException.class)).isNotNull();
  }

  @Test
  void aDocumentThatIsNoResourcePolicyIsRefused() {
    String table = createTable("policies", "pk", ScalarAttributeType.S);
    String arn = arn(table);
    DynamoDbException e = catchThrowableOfType(() -> dynamo.putResourcePolicy(b -> b
        .resourceArn(arn).policy("{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"*\","
            + " \"Resource\": \"*\"}}")), DynamoDbException.class);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
    assertThat(e.awsErrorDetails().errorMessage()).startsWith("Invalid policy document:");
    catchThrowableOfType(() -> dynamo.getResourcePolicy(b -> b.resourceArn(arn)),
        PolicyNotFoundException.class);
  }

  @Test
  void createTableAttachesItsResourcePolicyOrCreatesNothing() {
    String table = uniqueTableName("policies-created");
    String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/" + table;
    String policy = POLICY.formatted(arn);
    dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
        .resourcePolicy(policy));
    awaitActive(table);
    assertThat(dynamo.getResourcePolicy(b -> b.resourceArn(arn(table))).policy())
        .isEqualTo(policy);

    // A document no resource policy can be, or one above 20 KB: no table
    String refused = uniqueTableName("policies-refused");
    for (String document : List.of("{\"Statement\": {\"Effect\": \"Allow\"}}",
        POLICY.formatted(arn) + " ".repeat(20 * 1024))) {
      DynamoDbException e = catchThrowableOfType(() -> dynamo.createTable(b -> b
          .tableName(refused).billingMode(BillingMode.PAY_PER_REQUEST)
          .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
          .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
          .resourcePolicy(document)), DynamoDbException.class);
      assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
      assertThat(dynamo.listTables().tableNames()).doesNotContain(refused);
    }
  }
}
