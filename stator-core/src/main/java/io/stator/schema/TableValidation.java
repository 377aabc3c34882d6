package io.stator.schema;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.KeySchemaElement;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.UpdateTableRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * CreateTable and UpdateTable validation, in DynamoDB's order and with DynamoDB's messages:
 * required parameters, then the table name's length, then parameter constraints (all reported
 * together), then the rules that relate parameters to each other (key schema against attribute
 * definitions, billing mode against provisioned throughput).
 */
public final class TableValidation {
  /** DynamoDB's upper bound for provisioned capacity units. */
  static final long MAX_CAPACITY_UNITS = 1_000_000_000_000L;

  private TableValidation() {}

  /** Validates a CreateTable request and returns the new table's definition. */
  public static TableDefinition createTable(CreateTableRequest r, Instant now) {
    checkCreateTable(r);
    boolean payPerRequest = TableDefinition.PAY_PER_REQUEST.equals(r.billingMode());
    ProvisionedThroughput pt = r.provisionedThroughput();
    checkBilling(payPerRequest, pt);
    MaxThroughput maxThroughput =
        MaxThroughputValidation.createTable(r.onDemandThroughput(), payPerRequest);
    List<String> keys = keyNames(r);
    boolean hasIndexes =
        r.localSecondaryIndexes() != null || r.globalSecondaryIndexes() != null;
    List<KeyAttribute> definitions = new ArrayList<>();
    for (AttributeDefinition d : r.attributeDefinitions()) {
      definitions.add(new KeyAttribute(d.attributeName(), d.attributeType()));
    }
    KeyAttribute hash = find(definitions, keys.get(0));
    KeyAttribute range = keys.size() == 2 ? find(definitions, keys.get(1)) : null;
    String id = UUID.randomUUID().toString();
    List<IndexDefinition> indexes =
        IndexValidation.createTable(
            id, definitions, hash, range, r.localSecondaryIndexes(), r.globalSecondaryIndexes(),
            payPerRequest);
    if (hasIndexes) {
      IndexValidation.checkDefinitionsUsed(definitions, keys, indexes);
    }
    return new TableDefinition(
        r.tableName(),
        id,
        SpaceNames.table(id),
        hash,
        range,
        definitions,
        payPerRequest ? TableDefinition.PAY_PER_REQUEST : TableDefinition.PROVISIONED,
        payPerRequest ? 0 : pt.readCapacityUnits(),
        payPerRequest ? 0 : pt.writeCapacityUnits(),
        now,
        payPerRequest ? now : null,
        null,
        null,
        "ACTIVE",
        indexes,
        TimeToLive.DISABLED,
        List.of(),
        StreamSpecifications.create(r.streamSpecification(), now),
        SettingsValidation.create(r),
        maxThroughput);
  }

  /** CreateTable's request-level constraints, all reported at once as DynamoDB does. */
  private static void checkCreateTable(CreateTableRequest r) {
    Constraints c = new Constraints();
    c.notNull("attributeDefinitions", r.attributeDefinitions());
    if (r.attributeDefinitions() != null) {
      for (int i = 0; i < r.attributeDefinitions().size(); i++) {
        AttributeDefinition d = r.attributeDefinitions().get(i);
        String path = "attributeDefinitions." + (i + 1) + ".member";
        // The type before the name: DynamoDB's order (recorded against the service).
        c.notNull(path + ".attributeType", d.attributeType());
        c.oneOf(path + ".attributeType", d.attributeType(), "B", "N", "S");
        c.notNull(path + ".attributeName", d.attributeName());
      }
    }
    c.notNull("tableName", r.tableName()).name("tableName", r.tableName());
    c.oneOf("billingMode", r.billingMode(), "PROVISIONED", "PAY_PER_REQUEST");
    throughputConstraints(c, "provisionedThroughput", r.provisionedThroughput());
    c.notNull("keySchema", r.keySchema());
    if (r.keySchema() != null) {
      c.lengthAtLeast("keySchema", shown(r.keySchema()), r.keySchema().size(), 1);
      c.lengthAtMost("keySchema", shown(r.keySchema()), r.keySchema().size(), 2);
      for (int i = 0; i < r.keySchema().size(); i++) {
        KeySchemaElement k = r.keySchema().get(i);
        String path = "keySchema." + (i + 1) + ".member";
        c.notNull(path + ".attributeName", k.attributeName());
        c.notNull(path + ".keyType", k.keyType());
        c.oneOf(path + ".keyType", k.keyType(), "HASH", "RANGE");
      }
    }
    IndexValidation.constraints(
        c, "localSecondaryIndexes", IndexValidation.locals(r.localSecondaryIndexes()), false);
    IndexValidation.constraints(
        c, "globalSecondaryIndexes", IndexValidation.globals(r.globalSecondaryIndexes()), true);
    StreamSpecifications.constraints(c, r.streamSpecification());
    SettingsValidation.constraints(c, r);
    c.check();
  }

  /** A billing mode's throughput: none on demand, both units when provisioned. */
  private static void checkBilling(boolean payPerRequest, ProvisionedThroughput pt) {
    if (payPerRequest) {
      if (pt != null) {
        throw invalid(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode"
                + " is PAY_PER_REQUEST");
      }
    } else {
      if (pt == null || pt.readCapacityUnits() == null || pt.writeCapacityUnits() == null) {
        throw invalid(
            "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is"
                + " PROVISIONED");
      }
      throughputBounds(pt);
    }
  }

  /**
   * The key schema's attribute names, hash first, once checked against the attribute
   * definitions in DynamoDB's order of checks.
   */
  private static List<String> keyNames(CreateTableRequest r) {
    checkNoDuplicate(r.attributeDefinitions());
    List<String> defined = new ArrayList<>();
    for (AttributeDefinition d : r.attributeDefinitions()) {
      defined.add(d.attributeName());
    }
    List<String> keys = new ArrayList<>();
    for (KeySchemaElement k : r.keySchema()) {
      keys.add(k.attributeName());
    }
    if (keys.size() > defined.size()) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: Some index key attribute have no definition");
    }
    if (!defined.containsAll(keys)) {
      throw invalid(
          "Some index key attributes are not defined in AttributeDefinitions. Keys: ["
              + String.join(", ", keys) + "], AttributeDefinitions: ["
              + String.join(", ", defined) + "]");
    }
    if (keys.size() == 2 && keys.get(0).equals(keys.get(1))) {
      throw DynamoDbException.validation(
          "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    }
    if (!"HASH".equals(r.keySchema().get(0).keyType())) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }
    if (keys.size() == 2 && !"RANGE".equals(r.keySchema().get(1).keyType())) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    }
    boolean hasIndexes =
        r.localSecondaryIndexes() != null || r.globalSecondaryIndexes() != null;
    if (!hasIndexes && keys.size() != defined.size()) {
      throw invalid(
          "Number of attributes in KeySchema does not exactly match number of attributes defined"
              + " in AttributeDefinitions");
    }
    return keys;
  }

  /** Validates the request-level constraints of UpdateTable (before the table is looked up). */
  public static void updateTableRequest(UpdateTableRequest r) {
    Constraints c = new Constraints();
    c.notNull("tableName", r.tableName()).name("tableName", r.tableName());
    c.oneOf("billingMode", r.billingMode(), "PROVISIONED", "PAY_PER_REQUEST");
    throughputConstraints(c, "provisionedThroughput", r.provisionedThroughput());
    GlobalIndexUpdates.constraints(c, r);
    StreamSpecifications.constraints(c, r.streamSpecification());
    SettingsValidation.constraints(c, r);
    c.check();
    if (r.provisionedThroughput() == null
        && r.billingMode() == null
        && r.streamSpecification() == null
        && (r.globalSecondaryIndexUpdates() == null || r.globalSecondaryIndexUpdates().isEmpty())
        && r.deletionProtectionEnabled() == null
        && r.tableClass() == null
        && r.sseSpecification() == null
        && r.onDemandThroughput() == null) {
      throw DynamoDbException.validation(
          "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled,"
              + " GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
    }
    if (TableDefinition.PROVISIONED.equals(r.billingMode()) && r.provisionedThroughput() == null) {
      throw invalid("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
    }
    if (r.provisionedThroughput() != null) {
      throughputBounds(r.provisionedThroughput());
    }
    if (r.attributeDefinitions() != null) {
      checkNoDuplicate(r.attributeDefinitions());
    }
    GlobalIndexUpdates.checkRequest(r);
  }

  /**
   * An attribute defined twice, even with one type, is refused, naming it as DynamoDB does
   * ("Attribute Name is duplicated: x"): two types for one key attribute could not both hold.
   */
  private static void checkNoDuplicate(List<AttributeDefinition> definitions) {
    List<String> seen = new ArrayList<>();
    for (AttributeDefinition d : definitions) {
      if (seen.contains(d.attributeName())) {
        throw DynamoDbException.validation("Attribute Name is duplicated: " + d.attributeName());
      }
      seen.add(d.attributeName());
    }
  }

  /**
   * Applies a validated UpdateTable to a table: billing mode, provisioned throughput (with
   * DynamoDB's refusals of no-op throughput changes) and an on-demand table's ceilings.
   */
  public static TableDefinition updateTable(
      TableDefinition table, UpdateTableRequest r, Instant now) {
    TableDefinition billed = billing(table, r, now);
    if (!TableDefinition.PAY_PER_REQUEST.equals(billed.billingMode())) {
      MaxThroughputValidation.updateTable(billed.maxThroughput(), r.onDemandThroughput(), false);
      return MaxThroughputValidation.withoutCeilings(billed);
    }
    return billed.withMaxThroughput(MaxThroughputValidation.updateTable(
        billed.maxThroughput(), r.onDemandThroughput(), true));
  }

  private static TableDefinition billing(
      TableDefinition table, UpdateTableRequest r, Instant now) {
    String mode = r.billingMode() != null ? r.billingMode() : table.billingMode();
    ProvisionedThroughput pt = r.provisionedThroughput();
    if (pt != null && TableDefinition.PAY_PER_REQUEST.equals(mode)) {
      throw invalid(
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is"
              + " PAY_PER_REQUEST");
    }
    if (TableDefinition.PAY_PER_REQUEST.equals(mode)) {
      if (table.billingMode().equals(mode)) {
        return table; // nothing to change (e.g. only stream or class settings given)
      }
      return table.withBilling(mode, 0, 0, now, table.lastIncrease(), table.lastDecrease());
    }
    if (pt == null) {
      return table;
    }
    if (table.billingMode().equals(TableDefinition.PAY_PER_REQUEST)) {
      return table.withBilling(
          mode, pt.readCapacityUnits(), pt.writeCapacityUnits(),
          table.lastUpdateToPayPerRequest(), table.lastIncrease(), table.lastDecrease());
    }
    long readDiff = pt.readCapacityUnits() - table.readCapacityUnits();
    long writeDiff = pt.writeCapacityUnits() - table.writeCapacityUnits();
    if (readDiff == 0 && writeDiff == 0) {
      throw DynamoDbException.validation(
          "The provisioned throughput for the table will not change. The requested value equals"
              + " the current value. Current ReadCapacityUnits provisioned for the table: "
              + table.readCapacityUnits() + ". Requested ReadCapacityUnits: "
              + pt.readCapacityUnits() + ". Current WriteCapacityUnits provisioned for the table: "
              + table.writeCapacityUnits() + ". Requested WriteCapacityUnits: "
              + pt.writeCapacityUnits() + ". Refer to the Amazon DynamoDB Developer Guide for"
              + " current limits and how to request higher limits.");
    }
    Instant increase = readDiff > 0 || writeDiff > 0 ? now : table.lastIncrease();
    Instant decrease = readDiff < 0 || writeDiff < 0 ? now : table.lastDecrease();
    return table.withBilling(
        mode, pt.readCapacityUnits(), pt.writeCapacityUnits(),
        table.lastUpdateToPayPerRequest(), increase, decrease);
  }

  private static void throughputConstraints(
      Constraints c, String path, ProvisionedThroughput pt) {
    if (pt == null) {
      return;
    }
    c.notNull(path + ".writeCapacityUnits", pt.writeCapacityUnits());
    c.atLeast(path + ".writeCapacityUnits", pt.writeCapacityUnits(), 1);
    c.notNull(path + ".readCapacityUnits", pt.readCapacityUnits());
    c.atLeast(path + ".readCapacityUnits", pt.readCapacityUnits(), 1);
  }

  static void throughputBounds(ProvisionedThroughput pt) {
    if (pt.readCapacityUnits() > MAX_CAPACITY_UNITS) {
      throw DynamoDbException.validation(
          "Given value " + pt.readCapacityUnits() + " for ReadCapacityUnits is out of bounds");
    }
    if (pt.writeCapacityUnits() > MAX_CAPACITY_UNITS) {
      throw DynamoDbException.validation(
          "Given value " + pt.writeCapacityUnits() + " for WriteCapacityUnits is out of bounds");
    }
  }

  private static KeyAttribute find(List<KeyAttribute> definitions, String name) {
    for (KeyAttribute d : definitions) {
      if (Objects.equals(d.name(), name)) {
        return d;
      }
    }
    throw new IllegalStateException(name);
  }

  private static String shown(List<KeySchemaElement> keySchema) {
    List<String> parts = new ArrayList<>();
    for (KeySchemaElement k : keySchema) {
      parts.add("KeySchemaElement(attributeName=" + k.attributeName() + ", keyType="
          + k.keyType() + ")");
    }
    return "[" + String.join(", ", parts) + "]";
  }

  private static DynamoDbException invalid(String detail) {
    return DynamoDbException.validation("One or more parameter values were invalid: " + detail);
  }
}
