package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListTablesRequest;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.TableDescription;
import io.stator.api.UpdateTableRequest;
import io.stator.storage.memory.MemoryStorage;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class TableOperationsTest {
  private final MemoryStorage storage = new MemoryStorage();
  private final Database db = Stator.open(storage);

  @Test
  void createAndDescribe() {
    TableDescription created =
        db.createTable(create("Orders", "pk", "S", "sk", "N")).tableDescription();
    assertThat(created.tableStatus()).isEqualTo("ACTIVE");
    TableDescription d = db.describeTable(new DescribeTableRequest("Orders")).table();
    assertThat(d.tableName()).isEqualTo("Orders");
    assertThat(d.tableArn()).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/Orders");
    assertThat(d.tableId()).matches("[0-9a-f-]{36}").isEqualTo(created.tableId());
    assertThat(d.keySchema())
        .containsExactly(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("sk", "RANGE"));
    assertThat(d.attributeDefinitions())
        .containsExactly(new AttributeDefinition("pk", "S"), new AttributeDefinition("sk", "N"));
    assertThat(d.billingModeSummary().billingMode()).isEqualTo("PAY_PER_REQUEST");
    assertThat(d.provisionedThroughput().readCapacityUnits()).isZero();
    assertThat(d.provisionedThroughput().writeCapacityUnits()).isZero();
    assertThat(d.provisionedThroughput().numberOfDecreasesToday()).isZero();
    assertThat(d.creationDateTime()).isNotNull();
    assertThat(d.itemCount()).isZero();
    put(db, "Orders", item("pk", "a", "sk", 1));
    TableDescription after = db.describeTable(new DescribeTableRequest("Orders")).table();
    assertThat(after.itemCount()).isEqualTo(1);
    assertThat(after.tableSizeBytes()).isPositive();
  }

  @Test
  void deleteTableForgetsTheTablesCapacityModel() {
    Engine engine = (Engine) db;
    db.createTable(create("Orders", "pk", "S", "sk", "N"));
    put(db, "Orders", item("pk", "a", "sk", 1));
    assertThat(engine.capacityModel().trackedTables()).isEqualTo(1);
    db.deleteTable(new DeleteTableRequest("Orders"));
    assertThat(engine.capacityModel().trackedTables()).isZero();
  }

  @Test
  void provisionedTable() {
    TableDescription d = db.createTable(Fixtures.provisioned("Prov", 5, 7)).tableDescription();
    assertThat(d.billingModeSummary().billingMode()).isEqualTo("PROVISIONED");
    assertThat(d.provisionedThroughput().readCapacityUnits()).isEqualTo(5);
    assertThat(d.provisionedThroughput().writeCapacityUnits()).isEqualTo(7);
  }

  @Test
  void createTableErrors() {
    db.createTable(create("Taken", "pk", "S", null, null));
    expect(() -> db.createTable(create("Taken", "pk", "S", null, null)),
        ErrorType.ResourceInUseException, "Table already exists: Taken");
    expect(() -> db.createTable(create("ab", "pk", "S", null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint:"
            + " Member must have length greater than or equal to 3");
    expect(() -> db.createTable(create("a!b", "pk", "S", null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'a!b' at 'tableName' failed to satisfy constraint:"
            + " Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
    expect(() -> db.createTable(create(null, "pk", "S", null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value null at 'tableName' failed to satisfy constraint:"
            + " Member must not be null");
    expect(() -> db.createTable(create("Tbl", "pk", "BOOL", null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'BOOL' at 'attributeDefinitions.1.member.attributeType'"
            + " failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]");
    expect(() -> db.createTable(request("Tbl",
            List.of(new AttributeDefinition("pk", "S"), new AttributeDefinition("x", "S")),
            List.of(new KeySchemaElement("pk", "HASH")))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Number of attributes in KeySchema does not"
            + " exactly match number of attributes defined in AttributeDefinitions");
    expect(() -> db.createTable(request("Tbl",
            List.of(new AttributeDefinition("pk", "S")),
            List.of(new KeySchemaElement("other", "HASH")))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Some index key attributes are not defined in"
            + " AttributeDefinitions. Keys: [other], AttributeDefinitions: [pk]");
    expect(() -> db.createTable(request("Tbl",
            List.of(new AttributeDefinition("a", "S"), new AttributeDefinition("b", "S")),
            List.of(new KeySchemaElement("a", "RANGE"), new KeySchemaElement("b", "HASH")))),
        ErrorType.ValidationException,
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    expect(() -> db.createTable(request("Tbl",
            List.of(new AttributeDefinition("a", "S"), new AttributeDefinition("b", "S")),
            List.of(new KeySchemaElement("a", "HASH"), new KeySchemaElement("b", "HASH")))),
        ErrorType.ValidationException,
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    expect(() -> db.createTable(request("Tbl", List.of(new AttributeDefinition("a", "S")),
            List.of())),
        ErrorType.ValidationException,
        "1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint:"
            + " Member must have length greater than or equal to 1");
    expect(() -> db.createTable(new CreateTableRequest("Tbl",
            List.of(new AttributeDefinition("pk", "S")), List.of(new KeySchemaElement("pk", "HASH")),
            null, null, "PAY_PER_REQUEST", new ProvisionedThroughput(1L, 1L), null, null, null,
            null, null, null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor"
            + " WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    expect(() -> db.createTable(new CreateTableRequest("Tbl",
            List.of(new AttributeDefinition("pk", "S")), List.of(new KeySchemaElement("pk", "HASH")),
            null, null, null, null, null, null, null, null, null, null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must"
            + " both be specified when BillingMode is PROVISIONED");
    expect(() -> db.createTable(Fixtures.provisioned("Tbl", 0, 1)),
        ErrorType.ValidationException,
        "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits'"
            + " failed to satisfy constraint: Member must have value greater than or equal to 1");
  }

  @Test
  void listTablesIsSortedAndPaginated() {
    for (String name : List.of("gamma", "Alpha", "beta", "delta")) {
      db.createTable(create(name, "pk", "S", null, null));
    }
    assertThat(db.listTables(new ListTablesRequest(null, null)).tableNames())
        .containsExactly("Alpha", "beta", "delta", "gamma");
    var first = db.listTables(new ListTablesRequest(null, 2));
    assertThat(first.tableNames()).containsExactly("Alpha", "beta");
    assertThat(first.lastEvaluatedTableName()).isEqualTo("beta");
    var second = db.listTables(new ListTablesRequest("beta", 2));
    assertThat(second.tableNames()).containsExactly("delta", "gamma");
    assertThat(second.lastEvaluatedTableName()).isNull();
    expect(() -> db.listTables(new ListTablesRequest(null, 0)), ErrorType.ValidationException,
        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member"
            + " must have value greater than or equal to 1");
    expect(() -> db.listTables(new ListTablesRequest(null, 101)), ErrorType.ValidationException,
        "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member"
            + " must have value less than or equal to 100");
  }

  @Test
  void deleteTableAndRecreateStartsEmpty() {
    db.createTable(create("Gone", "pk", "S", null, null));
    put(db, "Gone", item("pk", "a"));
    TableDescription deleted = db.deleteTable(new DeleteTableRequest("Gone")).tableDescription();
    assertThat(deleted.tableStatus()).isEqualTo("DELETING");
    expect(() -> db.describeTable(new DescribeTableRequest("Gone")),
        ErrorType.ResourceNotFoundException, "Requested resource not found: Table: Gone not found");
    expect(() -> db.deleteTable(new DeleteTableRequest("Gone")),
        ErrorType.ResourceNotFoundException, "Requested resource not found: Table: Gone not found");
    expect(() -> db.getItem(Fixtures.get("Gone", item("pk", "a"))),
        ErrorType.ResourceNotFoundException, "Requested resource not found");
    db.createTable(create("Gone", "pk", "S", null, null));
    assertThat(db.getItem(Fixtures.get("Gone", item("pk", "a"))).item()).isNull();
    // the catalog and its fences, the resource policies, the backup records, the
    // ClientRequestTokens, the leases, the stream writers, the export and import records and the
    // new incarnation's items
    assertThat(storage.spaces()).hasSize(10);
  }

  @Test
  void updateTableBillingAndThroughput() {
    db.createTable(Fixtures.provisioned("Upd", 5, 5));
    TableDescription d = db.updateTable(update("Upd", null, new ProvisionedThroughput(10L, 5L)))
        .tableDescription();
    assertThat(d.provisionedThroughput().readCapacityUnits()).isEqualTo(10);
    assertThat(d.provisionedThroughput().lastIncreaseDateTime()).isNotNull();
    expect(() -> db.updateTable(update("Upd", null, new ProvisionedThroughput(10L, 5L))),
        ErrorType.ValidationException,
        "The provisioned throughput for the table will not change. The requested value equals the"
            + " current value. Current ReadCapacityUnits provisioned for the table: 10. Requested"
            + " ReadCapacityUnits: 10. Current WriteCapacityUnits provisioned for the table: 5."
            + " Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for"
            + " current limits and how to request higher limits.");
    d = db.updateTable(update("Upd", "PAY_PER_REQUEST", null)).tableDescription();
    assertThat(d.billingModeSummary().billingMode()).isEqualTo("PAY_PER_REQUEST");
    assertThat(d.billingModeSummary().lastUpdateToPayPerRequestDateTime()).isNotNull();
    assertThat(d.provisionedThroughput().readCapacityUnits()).isZero();
    expect(() -> db.updateTable(update("Upd", null, new ProvisionedThroughput(1L, 1L))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor"
            + " WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    expect(() -> db.updateTable(update("Upd", "PROVISIONED", null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: ProvisionedThroughput must be specified when"
            + " BillingMode is PROVISIONED");
    expect(() -> db.updateTable(update("Upd", null, null)), ErrorType.ValidationException,
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled,"
            + " GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
    expect(() -> db.updateTable(update("Nope", "PAY_PER_REQUEST", null)),
        ErrorType.ResourceNotFoundException, "Requested resource not found: Table: Nope not found");
    d = db.updateTable(update("Upd", "PROVISIONED", new ProvisionedThroughput(3L, 4L)))
        .tableDescription();
    assertThat(d.billingModeSummary().billingMode()).isEqualTo("PROVISIONED");
    assertThat(d.provisionedThroughput().writeCapacityUnits()).isEqualTo(4);
  }

  @Test
  void catalogSurvivesReopenOnTheSameStorage() {
    db.createTable(create("Kept", "pk", "S", "sk", "S"));
    put(db, "Kept", item("pk", "a", "sk", "b", "v", "1"));
    String id = db.describeTable(new DescribeTableRequest("Kept")).table().tableId();
    // a second engine on the same storage (the storage is not closed) sees everything
    Database reopened = Stator.open(storage);
    TableDescription d = reopened.describeTable(new DescribeTableRequest("Kept")).table();
    assertThat(d.tableId()).isEqualTo(id);
    assertThat(d.keySchema()).hasSize(2);
    assertThat(reopened.getItem(Fixtures.get("Kept", item("pk", "a", "sk", "b"))).item())
        .containsEntry("v", io.stator.value.AttributeValue.s("1"));
  }

  private static CreateTableRequest request(
      String name, List<AttributeDefinition> defs, List<KeySchemaElement> keys) {
    return new CreateTableRequest(
        name, defs, keys, null, null, "PAY_PER_REQUEST",
        null, null, null, null, null, null, null, null);
  }

  private static UpdateTableRequest update(
      String name, String billingMode, ProvisionedThroughput pt) {
    return new UpdateTableRequest(name, null, billingMode, pt, null, null, null, null);
  }

  static void expect(ThrowingCallable call, ErrorType type, String message) {
    assertThatThrownBy(call)
        .isInstanceOf(DynamoDbException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((DynamoDbException) e).type()).isEqualTo(type));
  }
}
