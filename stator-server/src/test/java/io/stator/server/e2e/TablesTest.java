package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * CreateTable, DescribeTable, ListTables, DeleteTable and UpdateTable through the AWS SDK, and
 * every validation error of table names, key schemas and attribute definitions.
 *
 * <p>Where the peer implementation used to check these expectations differs: it answers a
 * CreateTable of an existing table with an empty message; DynamoDB says "Table already exists:
 * NAME", which is what users see in its documentation and SDK logs, so the test keeps that.
 */
class TablesTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  @Test
  void describeTableReturnsTheFullDescription() {
    Instant before = Instant.now().minusSeconds(60);
    String name = uniqueTableName("describe");
    CreateTableResponse created = dynamo.createTable(CreateTableRequest.builder()
        .tableName(name)
        .keySchema(key("customerId", KeyType.HASH), key("orderDate", KeyType.RANGE))
        .attributeDefinitions(attribute("customerId", S), attribute("orderDate", S))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    assertThat(created.tableDescription().tableName()).isEqualTo(name);
    assertThat(created.tableDescription().tableStatus())
        .isIn(TableStatus.CREATING, TableStatus.ACTIVE);
    awaitActive(name);

    TableDescription table = dynamo.describeTable(r -> r.tableName(name)).table();
    assertThat(table.tableName()).isEqualTo(name);
    assertThat(table.tableStatus()).isEqualTo(TableStatus.ACTIVE);
    assertThat(table.tableArn()).matches("arn:aws:dynamodb:us-east-1:\\d{12}:table/" + name);
    assertThat(table.creationDateTime())
        .isAfter(before).isBefore(Instant.now().plus(Duration.ofMinutes(1)));
    assertThat(table.keySchema())
        .containsExactly(key("customerId", KeyType.HASH), key("orderDate", KeyType.RANGE));
    assertThat(table.attributeDefinitions())
        .containsExactlyInAnyOrder(attribute("customerId", S), attribute("orderDate", S));
    assertThat(table.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(table.provisionedThroughput().readCapacityUnits()).isZero();
    assertThat(table.provisionedThroughput().writeCapacityUnits()).isZero();
    assertThat(table.provisionedThroughput().numberOfDecreasesToday()).isZero();
    assertThat(table.itemCount()).isZero();
    assertThat(table.tableSizeBytes()).isZero();
  }

  @Test
  void itemCountFollowsPutsUpdatesOverwritesAndDeletes() {
    // DynamoDB refreshes ItemCount about every six hours; a local server answers at once.
    assumeThat(target).isNotEqualTo(Target.EXTERNAL);
    String name = createTable("itemcount", "id", S);
    for (String id : List.of("a", "b", "c")) {
      dynamo.putItem(r -> r.tableName(name).item(Map.of("id", s(id), "v", s("first"))));
    }
    dynamo.updateItem(r -> r.tableName(name).key(Map.of("id", s("a")))
        .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", s("updated"))));
    dynamo.putItem(r -> r.tableName(name).item(Map.of("id", s("b"), "v", s("second"))));
    dynamo.deleteItem(r -> r.tableName(name).key(Map.of("id", s("c"))));

    TableDescription table = dynamo.describeTable(r -> r.tableName(name)).table();
    assertThat(table.itemCount()).isEqualTo(2);
    assertThat(table.tableSizeBytes()).isPositive();
  }

  @Test
  void provisionedTableReportsItsThroughput() {
    String name = uniqueTableName("provisioned");
    dynamo.createTable(r -> r.tableName(name)
        .keySchema(key("id", KeyType.HASH))
        .attributeDefinitions(attribute("id", N))
        .provisionedThroughput(throughput(5, 7)));
    awaitActive(name);

    TableDescription table = dynamo.describeTable(r -> r.tableName(name)).table();
    assertThat(table.keySchema()).containsExactly(key("id", KeyType.HASH));
    assertThat(table.attributeDefinitions()).containsExactly(attribute("id", N));
    assertThat(table.provisionedThroughput().readCapacityUnits()).isEqualTo(5L);
    assertThat(table.provisionedThroughput().writeCapacityUnits()).isEqualTo(7L);
  }

  @Test
  void listTablesIsSortedAndPagesWithLimitAndExclusiveStartTableName() {
    String prefix = uniqueTableName("list");
    List<String> mine = new ArrayList<>();
    // Created out of order: ListTables sorts by name.
    for (String suffix : List.of("c", "a", "e", "b", "d")) {
      String name = prefix + "-" + suffix;
      dynamo.createTable(r -> r.tableName(name)
          .keySchema(key("id", KeyType.HASH))
          .attributeDefinitions(attribute("id", S))
          .billingMode(BillingMode.PAY_PER_REQUEST));
      mine.add(name);
    }
    mine.sort(null);

    List<String> all = new ArrayList<>();
    String start = null;
    int pages = 0;
    do {
      String exclusiveStart = start;
      ListTablesResponse page =
          dynamo.listTables(r -> r.limit(2).exclusiveStartTableName(exclusiveStart));
      assertThat(page.tableNames()).hasSizeLessThanOrEqualTo(2);
      if (page.lastEvaluatedTableName() != null) {
        assertThat(page.tableNames()).hasSize(2);
        assertThat(page.lastEvaluatedTableName()).isEqualTo(page.tableNames().get(1));
      }
      all.addAll(page.tableNames());
      start = page.lastEvaluatedTableName();
      assertThat(++pages).as("pages").isLessThan(1000);
    } while (start != null);

    assertThat(all).isSorted().doesNotHaveDuplicates();
    assertThat(all.stream().filter(t -> t.startsWith(prefix + "-"))).containsExactlyElementsOf(mine);

    // ExclusiveStartTableName is exclusive and needs not name an existing table.
    assertThat(dynamo.listTables(r -> r.exclusiveStartTableName(prefix + "-b")).tableNames())
        .startsWith(prefix + "-c", prefix + "-d", prefix + "-e");
    assertThat(dynamo.listTables(r -> r.exclusiveStartTableName(prefix + "-bb")).tableNames())
        .startsWith(prefix + "-c");
  }

  @Test
  void listTablesLimitMustBeBetween1And100() {
    assertValidation("1 validation error detected: Value '0' at 'limit' failed to satisfy "
        + "constraint: Member must have value greater than or equal to 1",
        () -> dynamo.listTables(r -> r.limit(0)));
    assertValidation("1 validation error detected: Value '101' at 'limit' failed to satisfy "
        + "constraint: Member must have value less than or equal to 100",
        () -> dynamo.listTables(r -> r.limit(101)));
  }

  @Test
  void deleteTableAnswersDynamoDbsDescriptionOfTheDeletedTable() {
    String name = uniqueTableName("delete-description");
    TableDescription created = dynamo.createTable(r -> r.tableName(name)
        .attributeDefinitions(attribute("id", S), attribute("g", S))
        .keySchema(key("id", KeyType.HASH))
        .globalSecondaryIndexes(g -> g.indexName("ByG").keySchema(key("g", KeyType.HASH))
            .projection(p -> p.projectionType("ALL")))
        .billingMode(BillingMode.PAY_PER_REQUEST)).tableDescription();
    dynamo.putItem(r -> r.tableName(name).item(item("id", s("a"), "g", s("x"))));
    TableDescription deleted = dynamo.deleteTable(r -> r.tableName(name)).tableDescription();
    assertThat(deleted.tableName()).isEqualTo(name);
    assertThat(deleted.tableStatus()).isEqualTo(TableStatus.DELETING);
    assertThat(deleted.tableArn()).isEqualTo(created.tableArn());
    assertThat(deleted.tableId()).isEqualTo(created.tableId());
    assertThat(deleted.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(deleted.provisionedThroughput().readCapacityUnits()).isZero();
    assertThat(deleted.itemCount()).isEqualTo(1);
    assertThat(deleted.tableSizeBytes()).isPositive();
    // What DescribeTable shows and DeleteTable leaves out.
    assertThat(deleted.hasKeySchema()).isFalse();
    assertThat(deleted.hasAttributeDefinitions()).isFalse();
    assertThat(deleted.creationDateTime()).isNull();
    assertThat(deleted.hasGlobalSecondaryIndexes()).isFalse();
    assertThat(deleted.hasLocalSecondaryIndexes()).isFalse();
  }

  @Test
  void anAttributeDefinedTwiceIsNamed() {
    assertValidation("Attribute Name is duplicated: id",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("dup"))
            .attributeDefinitions(attribute("id", S), attribute("id", N))
            .keySchema(key("id", KeyType.HASH)).billingMode(BillingMode.PAY_PER_REQUEST)));
    // Even with one type, and beside a GSI that uses it.
    assertValidation("Attribute Name is duplicated: g",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("dup"))
            .attributeDefinitions(attribute("id", S), attribute("g", S), attribute("g", S))
            .keySchema(key("id", KeyType.HASH))
            .globalSecondaryIndexes(g -> g.indexName("ByG").keySchema(key("g", KeyType.HASH))
                .projection(p -> p.projectionType("ALL")))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
    String table = createTable("dup-update", "id", S);
    assertValidation("Attribute Name is duplicated: g",
        () -> dynamo.updateTable(r -> r.tableName(table)
            .attributeDefinitions(attribute("g", S), attribute("g", N))
            .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("ByG")
                .keySchema(key("g", KeyType.HASH)).projection(p -> p.projectionType("ALL"))))));
  }

  @Test
  void anIndexKeyCannotRedefineAKeyAttributesType() {
    String table = uniqueTableName("redefine");
    dynamo.createTable(r -> r.tableName(table)
        .attributeDefinitions(attribute("id", S), attribute("xyz", S))
        .keySchema(key("id", KeyType.HASH))
        .globalSecondaryIndexes(g -> g.indexName("index1").keySchema(key("xyz", KeyType.HASH))
            .projection(p -> p.projectionType("ALL")))
        .billingMode(BillingMode.PAY_PER_REQUEST));
    assertValidation("One or more parameter values were invalid: Attributes cannot be redefined."
            + " Please check that your attribute has the same type as previously defined."
            + " Existing schema: Schema:[SchemaElement: key{xyz:S:HASH}] New schema:"
            + " Schema:[SchemaElement: key{xyz:N:HASH}]",
        () -> dynamo.updateTable(r -> r.tableName(table)
            .attributeDefinitions(attribute("xyz", N))
            .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("index2")
                .keySchema(key("xyz", KeyType.HASH)).projection(p -> p.projectionType("ALL"))))));
    // The table's own key: its schema is the one shown.
    assertValidation("One or more parameter values were invalid: Attributes cannot be redefined."
            + " Please check that your attribute has the same type as previously defined."
            + " Existing schema: Schema:[SchemaElement: key{id:S:HASH}] New schema:"
            + " Schema:[SchemaElement: key{xyz:S:HASH}, SchemaElement: key{id:B:RANGE}]",
        () -> dynamo.updateTable(r -> r.tableName(table)
            .attributeDefinitions(attribute("xyz", S), attribute("id", ScalarAttributeType.B))
            .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("index3")
                .keySchema(key("xyz", KeyType.HASH), key("id", KeyType.RANGE))
                .projection(p -> p.projectionType("ALL"))))));
    // The same type again is a new index of the attribute, as before.
    dynamo.updateTable(r -> r.tableName(table)
        .attributeDefinitions(attribute("xyz", S))
        .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("index2")
            .keySchema(key("xyz", KeyType.HASH)).projection(p -> p.projectionType("ALL")))));
    endpoint.awaitIndexes();
    assertThat(dynamo.describeTable(r -> r.tableName(table)).table().attributeDefinitions())
        .containsExactlyInAnyOrder(attribute("id", S), attribute("xyz", S));
  }

  /**
   * Settings that contradict each other are refused in DynamoDB's words, and no table is made:
   * a disabled stream with a view type, an INCLUDE projection without NonKeyAttributes (GSI or
   * LSI, on CreateTable and on UpdateTable's new GSI), an index key the request does not define.
   */
  @Test
  void contradictorySettingsAreRefused() {
    String disabled = uniqueTableName("stream-off");
    assertValidation("One or more parameter values were invalid: Table is being created with a"
            + " stream disabled, UpdateViewType should not be specified",
        () -> dynamo.createTable(r -> r.tableName(disabled)
            .attributeDefinitions(attribute("id", S)).keySchema(key("id", KeyType.HASH))
            .billingMode(BillingMode.PAY_PER_REQUEST)
            .streamSpecification(st -> st.streamEnabled(false)
                .streamViewType("NEW_AND_OLD_IMAGES"))));
    String include = "One or more parameter values were invalid: ProjectionType is INCLUDE, but"
        + " NonKeyAttributes is not specified";
    String gsi = uniqueTableName("include-gsi");
    assertValidation(include, () -> dynamo.createTable(r -> r.tableName(gsi)
        .attributeDefinitions(attribute("id", S), attribute("g", S))
        .keySchema(key("id", KeyType.HASH))
        .globalSecondaryIndexes(g -> g.indexName("ByG").keySchema(key("g", KeyType.HASH))
            .projection(p -> p.projectionType("INCLUDE")))
        .billingMode(BillingMode.PAY_PER_REQUEST)));
    String lsi = uniqueTableName("include-lsi");
    assertValidation(include, () -> dynamo.createTable(r -> r.tableName(lsi)
        .attributeDefinitions(attribute("id", S), attribute("s", S), attribute("l", S))
        .keySchema(key("id", KeyType.HASH), key("s", KeyType.RANGE))
        .localSecondaryIndexes(l -> l.indexName("ByL")
            .keySchema(key("id", KeyType.HASH), key("l", KeyType.RANGE))
            .projection(p -> p.projectionType("INCLUDE")))
        .billingMode(BillingMode.PAY_PER_REQUEST)));
    String undefined = uniqueTableName("undefined-gsi");
    assertValidation("One or more parameter values were invalid: Some index key attributes are"
            + " not defined in AttributeDefinitions. Keys: [g], AttributeDefinitions: [id]",
        () -> dynamo.createTable(r -> r.tableName(undefined)
            .attributeDefinitions(attribute("id", S)).keySchema(key("id", KeyType.HASH))
            .globalSecondaryIndexes(g -> g.indexName("ByG").keySchema(key("g", KeyType.HASH))
                .projection(p -> p.projectionType("ALL")))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
    for (String name : List.of(disabled, gsi, lsi, undefined)) {
      assertErrorContaining(ResourceNotFoundException.class, "ResourceNotFoundException",
          "Requested resource not found", () -> dynamo.describeTable(r -> r.tableName(name)));
    }

    String table = createTable("include-update", "id", S);
    assertValidation(include, () -> dynamo.updateTable(r -> r.tableName(table)
        .attributeDefinitions(attribute("g", S))
        .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("ByG")
            .keySchema(key("g", KeyType.HASH)).projection(p -> p.projectionType("INCLUDE"))))));
    assertThat(dynamo.describeTable(r -> r.tableName(table)).table().hasGlobalSecondaryIndexes())
        .isFalse();
  }

  @Test
  void deleteTableRemovesTheTable() {
    String name = createTable("delete", "id", S);
    TableDescription deleted = dynamo.deleteTable(r -> r.tableName(name)).tableDescription();
    assertThat(deleted.tableName()).isEqualTo(name);
    assertThat(deleted.tableStatus()).isIn(TableStatus.DELETING, TableStatus.ACTIVE);

    awaitGone(name);
    assertThat(dynamo.listTables().tableNames()).doesNotContain(name);
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + name + " not found",
        () -> dynamo.describeTable(r -> r.tableName(name)));
    // The name is free again.
    String again = name;
    dynamo.createTable(r -> r.tableName(again)
        .keySchema(key("other", KeyType.HASH))
        .attributeDefinitions(attribute("other", N))
        .billingMode(BillingMode.PAY_PER_REQUEST));
    awaitActive(name);
    assertThat(dynamo.describeTable(r -> r.tableName(again)).table().keySchema())
        .containsExactly(key("other", KeyType.HASH));
  }

  @Test
  void operationsOnAMissingTableAreResourceNotFound() {
    String name = uniqueTableName("missing");
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + name + " not found",
        () -> dynamo.describeTable(r -> r.tableName(name)));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + name + " not found",
        () -> dynamo.deleteTable(r -> r.tableName(name)));
    assertErrorContaining(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> dynamo.updateTable(r -> r.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void creatingAnExistingTableIsResourceInUse() {
    String name = createTable("exists", "id", S);
    assertError(ResourceInUseException.class, "ResourceInUseException",
        "Table already exists: " + name,
        () -> dynamo.createTable(r -> r.tableName(name)
            .keySchema(key("id", KeyType.HASH))
            .attributeDefinitions(attribute("id", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void updateTableSwitchesBillingModeAndThroughput() {
    String name = createTable("update", "id", S);
    TableDescription updated = dynamo.updateTable(r -> r.tableName(name)
        .billingMode(BillingMode.PROVISIONED)
        .provisionedThroughput(throughput(3, 4))).tableDescription();
    assertThat(updated.tableName()).isEqualTo(name);
    awaitActive(name);

    TableDescription table = dynamo.describeTable(r -> r.tableName(name)).table();
    assertThat(table.billingModeSummary().billingMode()).isEqualTo(BillingMode.PROVISIONED);
    assertThat(table.provisionedThroughput().readCapacityUnits()).isEqualTo(3L);
    assertThat(table.provisionedThroughput().writeCapacityUnits()).isEqualTo(4L);
    assertThat(table.keySchema()).containsExactly(key("id", KeyType.HASH));

    dynamo.updateTable(r -> r.tableName(name).provisionedThroughput(throughput(6, 8)));
    awaitActive(name);
    TableDescription raised = dynamo.describeTable(r -> r.tableName(name)).table();
    assertThat(raised.provisionedThroughput().readCapacityUnits()).isEqualTo(6L);
    assertThat(raised.provisionedThroughput().writeCapacityUnits()).isEqualTo(8L);
  }

  @Test
  void updateTableNeedsSomethingToUpdate() {
    String name = createTable("update-nothing", "id", S);
    assertValidationContaining("At least one of ProvisionedThroughput, BillingMode",
        () -> dynamo.updateTable(r -> r.tableName(name)));
  }

  // ---- table names --------------------------------------------------------------------------

  @Test
  void tableNameMustBe3To255Characters() {
    // The model lets CreateTable take a name or an ARN (1 to 1,024 characters); a name is 3 to
    // 255 of a table name's characters, in DynamoDB's words for its constraints.
    assertValidation("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy"
            + " constraint: Member must have length greater than or equal to 3",
        () -> dynamo.createTable(simpleTable("ab")));
    String tooLong = "x".repeat(256);
    assertValidation("1 validation error detected: Value '" + tooLong + "' at 'tableName' failed"
            + " to satisfy constraint: Member must have length less than or equal to 255",
        () -> dynamo.createTable(simpleTable(tooLong)));
    // 255 characters is allowed.
    String longest = uniqueTableName("long");
    String name = longest + "x".repeat(255 - longest.length());
    dynamo.createTable(simpleTable(name));
    awaitActive(name);
  }

  @Test
  void tableNameMustUseAllowedCharacters() {
    assertValidation("1 validation error detected: Value 'my table' at 'tableName' failed to "
        + "satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        () -> dynamo.createTable(simpleTable("my table")));
    String allowed = uniqueTableName("Az09_.-");
    dynamo.createTable(simpleTable(allowed));
    awaitActive(allowed);
  }

  @Test
  void describeTableValidatesTheName() {
    assertValidation("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy"
            + " constraint: Member must have length greater than or equal to 3",
        () -> dynamo.describeTable(r -> r.tableName("ab")));
  }

  // ---- key schemas and attribute definitions ------------------------------------------------

  @Test
  void keyAttributeTypeMustBeSNOrB() {
    assertValidation("1 validation error detected: Value 'BOOL' at "
        + "'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: "
        + "Member must satisfy enum value set: [B, N, S]",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("bool"))
            .keySchema(key("id", KeyType.HASH))
            .attributeDefinitions(AttributeDefinition.builder()
                .attributeName("id").attributeType("BOOL").build())
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void keyTypeMustBeHashOrRange() {
    assertValidation("1 validation error detected: Value 'PRIMARY' at 'keySchema.1.member.keyType' "
        + "failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("keytype"))
            .keySchema(KeySchemaElement.builder().attributeName("id").keyType("PRIMARY").build())
            .attributeDefinitions(attribute("id", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void firstKeyMustBeHash() {
    assertValidation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("range-first"))
            .keySchema(key("sk", KeyType.RANGE), key("pk", KeyType.HASH))
            .attributeDefinitions(attribute("pk", S), attribute("sk", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void onlyOneHashKey() {
    assertValidation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("two-hash"))
            .keySchema(key("a", KeyType.HASH), key("b", KeyType.HASH))
            .attributeDefinitions(attribute("a", S), attribute("b", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void atMostOneRangeKey() {
    assertValidationContaining("at 'keySchema' failed to satisfy constraint: "
        + "Member must have length less than or equal to 2",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("three-keys"))
            .keySchema(key("a", KeyType.HASH), key("b", KeyType.RANGE), key("c", KeyType.RANGE))
            .attributeDefinitions(attribute("a", S), attribute("b", S), attribute("c", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void keySchemaMustNotBeEmpty() {
    assertValidationContaining("at 'keySchema' failed to satisfy constraint: "
        + "Member must have length greater than or equal to 1",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("no-keys"))
            .keySchema(List.of())
            .attributeDefinitions(attribute("a", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void hashAndRangeKeysMustDiffer() {
    assertValidation("Both the Hash Key and the Range Key element in the KeySchema have the same name",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("same-name"))
            .keySchema(key("id", KeyType.HASH), key("id", KeyType.RANGE))
            .attributeDefinitions(attribute("id", S), attribute("other", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void everyKeyAttributeMustBeDefined() {
    assertValidation("One or more parameter values were invalid: Some index key attributes are not "
        + "defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("undefined-key"))
            .keySchema(key("pk", KeyType.HASH))
            .attributeDefinitions(attribute("other", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
    assertValidationContaining("no definition",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("undefined-range"))
            .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
            .attributeDefinitions(attribute("pk", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void noUnusedAttributeDefinitions() {
    assertValidation("One or more parameter values were invalid: Number of attributes in KeySchema "
        + "does not exactly match number of attributes defined in AttributeDefinitions",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("unused-definition"))
            .keySchema(key("pk", KeyType.HASH))
            .attributeDefinitions(attribute("pk", S), attribute("extra", N))
            .billingMode(BillingMode.PAY_PER_REQUEST)));
  }

  @Test
  void provisionedTablesNeedThroughput() {
    assertValidation("One or more parameter values were invalid: ReadCapacityUnits and "
        + "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("no-throughput"))
            .keySchema(key("pk", KeyType.HASH))
            .attributeDefinitions(attribute("pk", S))));
  }

  @Test
  void onDemandTablesTakeNoThroughput() {
    assertValidation("One or more parameter values were invalid: Neither ReadCapacityUnits nor "
        + "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("extra-throughput"))
            .keySchema(key("pk", KeyType.HASH))
            .attributeDefinitions(attribute("pk", S))
            .billingMode(BillingMode.PAY_PER_REQUEST)
            .provisionedThroughput(throughput(1, 1))));
  }

  @Test
  void throughputMustBePositive() {
    assertValidation("1 validation error detected: Value '0' at "
        + "'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: "
        + "Member must have value greater than or equal to 1",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("zero-throughput"))
            .keySchema(key("pk", KeyType.HASH))
            .attributeDefinitions(attribute("pk", S))
            .provisionedThroughput(throughput(0, 1))));
  }

  private CreateTableRequest simpleTable(String name) {
    return CreateTableRequest.builder()
        .tableName(name)
        .keySchema(key("id", KeyType.HASH))
        .attributeDefinitions(attribute("id", S))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build();
  }

  private static ProvisionedThroughput throughput(long read, long write) {
    return ProvisionedThroughput.builder()
        .readCapacityUnits(read).writeCapacityUnits(write).build();
  }

  private void awaitGone(String name) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        dynamo.describeTable(r -> r.tableName(name));
      } catch (ResourceNotFoundException e) {
        return;
      }
      assertThat(System.nanoTime()).as("table %s still there", name).isLessThan(deadline);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
