package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OnDemandThroughput;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * OnDemandThroughput through the AWS SDK: CreateTable and UpdateTable set the ceilings of an
 * on-demand table and of its GSIs, DescribeTable shows them as DynamoDB settles them (a member
 * removed with -1 left out, none at all once both are removed), and the values DynamoDB refuses
 * are refused in its words, creating or changing nothing. Throttling above the ceilings is in
 * {@link CapacityTest}, whose server runs on a clock the test moves.
 */
class OnDemandThroughputTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  private static OnDemandThroughput max(Long read, Long write) {
    return OnDemandThroughput.builder().maxReadRequestUnits(read).maxWriteRequestUnits(write)
        .build();
  }

  private static GlobalSecondaryIndex gsi(String name, OnDemandThroughput ceilings) {
    return GlobalSecondaryIndex.builder().indexName(name).keySchema(key("g", KeyType.HASH))
        .projection(p -> p.projectionType(ProjectionType.ALL)).onDemandThroughput(ceilings)
        .build();
  }

  /** Settings of a table with one GSI {@code byG} on {@code g}, and {@code more}. */
  private static Consumer<CreateTableRequest.Builder> withIndex(
      OnDemandThroughput ceilings, Consumer<CreateTableRequest.Builder> more) {
    return b -> {
      b.attributeDefinitions(attribute("id", S), attribute("g", S))
          .globalSecondaryIndexes(gsi("byG", ceilings));
      more.accept(b);
    };
  }

  private void create(String name, Consumer<CreateTableRequest.Builder> more) {
    CreateTableRequest.Builder b = CreateTableRequest.builder().tableName(name)
        .keySchema(key("id", KeyType.HASH))
        .attributeDefinitions(attribute("id", S))
        .billingMode(BillingMode.PAY_PER_REQUEST);
    more.accept(b);
    dynamo.createTable(b.build());
    awaitActive(name);
  }

  private TableDescription describe(String name) {
    return dynamo.describeTable(r -> r.tableName(name)).table();
  }

  private static GlobalSecondaryIndexDescription index(TableDescription t) {
    return t.globalSecondaryIndexes().get(0);
  }

  @Test
  void createTableSetsTheCeilingsAndDescribeTableShowsThem() {
    String name = uniqueTableName("odt-create");
    create(name, withIndex(max(10L, null), b -> b.onDemandThroughput(max(100L, 50L))));
    TableDescription t = describe(name);
    assertThat(t.onDemandThroughput()).isEqualTo(max(100L, 50L));
    // A member not given is left out, as DynamoDB describes a read-only ceiling.
    assertThat(index(t).onDemandThroughput()).isEqualTo(max(10L, null));

    String plain = uniqueTableName("odt-none");
    create(plain, withIndex(null, b -> { }));
    assertThat(describe(plain).onDemandThroughput()).isNull();
    assertThat(index(describe(plain)).onDemandThroughput()).isNull();

    // An empty OnDemandThroughput is taken at CreateTable, and sets nothing.
    String empty = uniqueTableName("odt-empty");
    create(empty, b -> b.onDemandThroughput(max(null, null)));
    assertThat(describe(empty).onDemandThroughput()).isNull();
  }

  @Test
  void updateTableMergesMembersAndMinusOneRemovesACeiling() {
    String name = uniqueTableName("odt-update");
    create(name, withIndex(max(10L, null), b -> b.onDemandThroughput(max(100L, 50L))));

    // A member not given keeps its ceiling.
    TableDescription answered = dynamo.updateTable(r -> r.tableName(name)
        .onDemandThroughput(max(null, 70L))).tableDescription();
    assertThat(answered.onDemandThroughput()).isEqualTo(max(100L, 70L));
    assertThat(describe(name).onDemandThroughput()).isEqualTo(max(100L, 70L));

    // -1 removes one ceiling; the other stays. UpdateTable's answer shows the removed one as -1,
    // DescribeTable leaves it out, as DynamoDB answers.
    assertThat(dynamo.updateTable(r -> r.tableName(name).onDemandThroughput(max(-1L, null)))
        .tableDescription().onDemandThroughput()).isEqualTo(max(-1L, 70L));
    assertThat(describe(name).onDemandThroughput()).isEqualTo(max(null, 70L));
    // Both removed: DescribeTable shows no OnDemandThroughput at all.
    assertThat(dynamo.updateTable(r -> r.tableName(name).onDemandThroughput(max(null, -1L)))
        .tableDescription().onDemandThroughput()).isEqualTo(max(null, -1L));
    assertThat(describe(name).onDemandThroughput()).isNull();
    // Removing what is not set is taken too.
    assertThat(dynamo.updateTable(r -> r.tableName(name).onDemandThroughput(max(-1L, -1L)))
        .tableDescription().onDemandThroughput()).isEqualTo(max(-1L, -1L));
    assertThat(describe(name).onDemandThroughput()).isNull();

    // A GSI's ceilings change with an Update of the index.
    dynamo.updateTable(r -> r.tableName(name).globalSecondaryIndexUpdates(
        GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName("byG")
            .onDemandThroughput(max(null, 5L))).build()));
    assertThat(index(describe(name)).onDemandThroughput()).isEqualTo(max(10L, 5L));
    dynamo.updateTable(r -> r.tableName(name).globalSecondaryIndexUpdates(
        GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName("byG")
            .onDemandThroughput(max(-1L, -1L))).build()));
    assertThat(index(describe(name)).onDemandThroughput()).isNull();

    // A GSI created by UpdateTable takes its own.
    dynamo.updateTable(r -> r.tableName(name)
        .attributeDefinitions(attribute("h", S))
        .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(c -> c
            .indexName("byH").keySchema(key("h", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
            .onDemandThroughput(max(20L, 30L))).build()));
    assertThat(describe(name).globalSecondaryIndexes())
        .filteredOn(i -> i.indexName().equals("byH")).singleElement()
        .satisfies(i -> assertThat(i.onDemandThroughput()).isEqualTo(max(20L, 30L)));
  }

  @Test
  void switchingToProvisionedDropsTheCeilings() {
    String name = uniqueTableName("odt-switch");
    create(name, b -> b.onDemandThroughput(max(100L, 50L)));
    dynamo.updateTable(r -> r.tableName(name).billingMode(BillingMode.PROVISIONED)
        .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
    assertThat(describe(name).onDemandThroughput()).isNull();
  }

  @Test
  void createTableRefusesCeilingsOutOfRangeOrOnAProvisionedTable() {
    String name = uniqueTableName("odt-refused");
    assertValidation("One or more parameter values were invalid: Requested MaxReadRequestUnits"
            + " for OnDemandThroughput for table is outside of valid range",
        () -> create(name, b -> b.onDemandThroughput(max(0L, 0L))));
    // -1 removes a ceiling in UpdateTable; CreateTable has none to remove.
    assertValidation("One or more parameter values were invalid: Requested MaxReadRequestUnits"
            + " for OnDemandThroughput for table is outside of valid range",
        () -> create(name, b -> b.onDemandThroughput(max(-1L, -1L))));
    assertValidation("One or more parameter values were invalid: Requested MaxWriteRequestUnits"
            + " for OnDemandThroughput for table is outside of valid range",
        () -> create(name, b -> b.onDemandThroughput(max(10L, -2L))));
    // Above the default per-table quota of 40,000.
    assertValidation("One or more parameter values were invalid: Requested MaxWriteRequestUnits"
            + " for OnDemandThroughput for table is outside of valid range",
        () -> create(name, b -> b.onDemandThroughput(max(null, 40_001L))));
    assertValidation("One or more parameter values were invalid: Requested MaxReadRequestUnits"
            + " for OnDemandThroughput for index : byG is outside of valid range",
        () -> create(name, withIndex(max(0L, null), b -> { })));
    assertValidation("One or more parameter values were invalid: MaxReadRequestUnits for"
            + " OnDemandThroughput cannot be specified when table BillingMode is PROVISIONED.",
        () -> create(name, b -> b.billingMode(BillingMode.PROVISIONED)
            .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))
            .onDemandThroughput(max(10L, 10L))));
    assertValidation("One or more parameter values were invalid: MaxWriteRequestUnits for"
            + " OnDemandThroughput for index: byG cannot be specified when table BillingMode is"
            + " PROVISIONED.",
        () -> create(name, withIndex(null, b -> b.billingMode(BillingMode.PROVISIONED)
            .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))
            .globalSecondaryIndexes(gsi("byG", max(null, 10L)).toBuilder()
                .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))
                .build()))));
    // Nothing was created.
    assertErrorContaining(ResourceNotFoundException.class, "ResourceNotFoundException", name,
        () -> dynamo.describeTable(r -> r.tableName(name)));
  }

  @Test
  void updateTableRefusesWhatDynamoDbRefusesAndChangesNothing() {
    String name = uniqueTableName("odt-update-refused");
    create(name, withIndex(max(10L, null), b -> b.onDemandThroughput(max(100L, 50L))));
    assertValidation("One or more parameter values were invalid: Requested MaxWriteRequestUnits"
            + " for OnDemandThroughput for table is outside of valid range",
        () -> dynamo.updateTable(r -> r.tableName(name).onDemandThroughput(max(200L, 0L))));
    assertValidation("One or more parameter values were invalid: Requested MaxReadRequestUnits"
            + " for OnDemandThroughput for table is outside of valid range",
        () -> dynamo.updateTable(r -> r.tableName(name).onDemandThroughput(max(-2L, null))));
    assertValidation("One or more parameter values were invalid: Requested MaxWriteRequestUnits"
            + " for OnDemandThroughput for index : byG is outside of valid range",
        () -> dynamo.updateTable(r -> r.tableName(name).globalSecondaryIndexUpdates(
            GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName("byG")
                .onDemandThroughput(max(null, 0L))).build())));
    // An on-demand table's GSI takes no ProvisionedThroughput.
    assertValidation("One or more parameter values were invalid: The only Updates for index: byG"
            + " when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput,"
            + " WarmThroughput",
        () -> dynamo.updateTable(r -> r.tableName(name).globalSecondaryIndexUpdates(
            GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName("byG")
                .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L)))
                .build())));
    TableDescription t = describe(name);
    assertThat(t.onDemandThroughput()).isEqualTo(max(100L, 50L));
    assertThat(index(t).onDemandThroughput()).isEqualTo(max(10L, null));

    String provisioned = uniqueTableName("odt-provisioned");
    dynamo.createTable(b -> b.tableName(provisioned).keySchema(key("id", KeyType.HASH))
        .attributeDefinitions(attribute("id", S))
        .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L)));
    awaitActive(provisioned);
    assertValidation("One or more parameter values were invalid: MaxReadRequestUnits for"
            + " OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED",
        () -> dynamo.updateTable(r -> r.tableName(provisioned)
            .onDemandThroughput(max(100L, 100L))));
    assertThat(describe(provisioned).onDemandThroughput()).isNull();
  }
}
