package io.stator.schema;

import io.stator.api.DynamoDbException;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.Projection;
import io.stator.api.OnDemandThroughput;
import io.stator.api.ProvisionedThroughput;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules for secondary indexes in CreateTable and UpdateTable, in DynamoDB's order and with its
 * messages: first the request-level constraints of each index (reported with the table's), then,
 * per index, key attributes defined, key schema shape, the LSI's shared partition key, the
 * projection, duplicate names; then the per-table limits (5 LSIs, 20 GSIs, 100 projected
 * non-key attributes).
 */
final class IndexValidation {
  static final int MAX_LOCAL_INDEXES = 5;
  static final int MAX_GLOBAL_INDEXES = 20;
  static final int MAX_NON_KEY_ATTRIBUTES = 100;

  private IndexValidation() {}

  /** An index as given in a request, local or global. */
  record Given(
      String indexName,
      List<KeySchemaElement> keySchema,
      Projection projection,
      ProvisionedThroughput provisionedThroughput,
      OnDemandThroughput onDemandThroughput) {}

  static List<Given> locals(List<LocalSecondaryIndex> list) {
    List<Given> out = new ArrayList<>();
    if (list != null) {
      for (LocalSecondaryIndex i : list) {
        out.add(new Given(i.indexName(), i.keySchema(), i.projection(), null, null));
      }
    }
    return out;
  }

  static List<Given> globals(List<GlobalSecondaryIndex> list) {
    List<Given> out = new ArrayList<>();
    if (list != null) {
      for (GlobalSecondaryIndex i : list) {
        out.add(new Given(i.indexName(), i.keySchema(), i.projection(), i.provisionedThroughput(),
            i.onDemandThroughput()));
      }
    }
    return out;
  }

  /** The request-level constraints of one list of indexes ({@code path}, e.g. globalSecondaryIndexes). */
  static void constraints(Constraints c, String path, List<Given> indexes, boolean global) {
    for (int i = 0; i < indexes.size(); i++) {
      constraints(c, path + "." + (i + 1) + ".member", indexes.get(i), global);
    }
  }

  /** The request-level constraints of one index whose members are at {@code p}. */
  static void constraints(Constraints c, String p, Given g, boolean global) {
    {
      c.notNull(p + ".indexName", g.indexName());
      c.name(p + ".indexName", g.indexName());
      c.notNull(p + ".keySchema", g.keySchema());
      if (g.keySchema() != null) {
        c.lengthAtLeast(p + ".keySchema", g.keySchema(), g.keySchema().size(), 1);
        for (int k = 0; k < g.keySchema().size(); k++) {
          KeySchemaElement e = g.keySchema().get(k);
          String kp = p + ".keySchema." + (k + 1) + ".member";
          c.notNull(kp + ".attributeName", e.attributeName());
          c.notNull(kp + ".keyType", e.keyType());
          c.oneOf(kp + ".keyType", e.keyType(), "HASH", "RANGE");
        }
      }
      c.notNull(p + ".projection", g.projection());
      if (g.projection() != null) {
        c.oneOf(p + ".projection.projectionType", g.projection().projectionType(),
            "ALL", "INCLUDE", "KEYS_ONLY");
        List<String> nonKey = g.projection().nonKeyAttributes();
        if (nonKey != null) {
          c.lengthAtLeast(p + ".projection.nonKeyAttributes", nonKey, nonKey.size(), 1);
          c.lengthAtMost(p + ".projection.nonKeyAttributes", nonKey, nonKey.size(), 20);
        }
      }
      if (global && g.provisionedThroughput() != null) {
        ProvisionedThroughput pt = g.provisionedThroughput();
        c.notNull(p + ".provisionedThroughput.writeCapacityUnits", pt.writeCapacityUnits());
        c.atLeast(p + ".provisionedThroughput.writeCapacityUnits", pt.writeCapacityUnits(), 1);
        c.notNull(p + ".provisionedThroughput.readCapacityUnits", pt.readCapacityUnits());
        c.atLeast(p + ".provisionedThroughput.readCapacityUnits", pt.readCapacityUnits(), 1);
      }
    }
  }

  /**
   * Validates the indexes of a CreateTable against the table's key schema and attribute
   * definitions and returns their definitions.
   */
  static List<IndexDefinition> createTable(
      String tableId, List<KeyAttribute> definitions, KeyAttribute hash, KeyAttribute range,
      List<LocalSecondaryIndex> localList, List<GlobalSecondaryIndex> globalList,
      boolean payPerRequest) {
    List<IndexDefinition> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    if (localList != null) {
      if (localList.isEmpty()) {
        throw invalid("List of LocalSecondaryIndexes is empty");
      }
      if (range == null) {
        throw invalid(
            "Table KeySchema does not have a range key, which is required when specifying a"
                + " LocalSecondaryIndex");
      }
      for (Given g : locals(localList)) {
        List<KeyAttribute> keys = keys(g, definitions);
        checkShape(g);
        if (g.keySchema().size() != 2) {
          throw invalid("Index KeySchema does not have a range key for index: " + g.indexName());
        }
        String indexHash = g.keySchema().get(0).attributeName();
        if (!indexHash.equals(hash.name())) {
          throw invalid(
              "Index KeySchema does not have the same leading hash key as table KeySchema for"
                  + " index: " + g.indexName() + ". index hash key: " + indexHash
                  + ", table hash key: " + hash.name());
        }
        checkProjection(g);
        if (!names.add(g.indexName())) {
          throw invalid("Duplicate index name: " + g.indexName());
        }
        out.add(definition(tableId, g, keys, false, 0, 0, IndexDefinition.ACTIVE));
      }
      if (localList.size() > MAX_LOCAL_INDEXES) {
        throw invalid(
            "Number of LocalSecondaryIndexes exceeds per-table limit of " + MAX_LOCAL_INDEXES);
      }
    }
    if (globalList != null) {
      if (globalList.isEmpty()) {
        throw invalid("List of GlobalSecondaryIndexes is empty");
      }
      for (Given g : globals(globalList)) {
        IndexDefinition d =
            global(tableId, g, definitions, payPerRequest, IndexDefinition.ACTIVE);
        if (!names.add(g.indexName())) {
          throw invalid("Duplicate index name: " + g.indexName());
        }
        out.add(d);
      }
      if (globalList.size() > MAX_GLOBAL_INDEXES) {
        throw invalid(
            "GlobalSecondaryIndex count exceeds the per-table limit of " + MAX_GLOBAL_INDEXES);
      }
    }
    checkNonKeyAttributes(out);
    return out;
  }

  /** Validates one GSI (CreateTable, or UpdateTable's Create) and returns its definition. */
  static IndexDefinition global(
      String tableId, Given g, List<KeyAttribute> definitions, boolean payPerRequest,
      String status) {
    List<KeyAttribute> keys = keys(g, definitions);
    checkGlobalShape(g);
    checkProjection(g);
    ProvisionedThroughput pt = g.provisionedThroughput();
    if (payPerRequest && pt != null) {
      throw invalid(
          "ProvisionedThroughput should not be specified for index: " + g.indexName()
              + " when BillingMode is PAY_PER_REQUEST");
    }
    if (!payPerRequest && pt == null) {
      throw invalid("ProvisionedThroughput must be specified for index: " + g.indexName());
    }
    if (pt != null) {
      TableValidation.throughputBounds(pt);
    }
    MaxThroughput maxThroughput =
        MaxThroughputValidation.createIndex(g.onDemandThroughput(), payPerRequest, g.indexName());
    return definition(
        tableId, g, keys, true, pt == null ? 0 : pt.readCapacityUnits(),
        pt == null ? 0 : pt.writeCapacityUnits(), status).withMaxThroughput(maxThroughput);
  }

  /** Attribute definitions must all be used by the table's or an index's key schema. */
  static void checkDefinitionsUsed(
      List<KeyAttribute> definitions, List<String> tableKeys, List<IndexDefinition> indexes) {
    Set<String> used = new HashSet<>(tableKeys);
    for (IndexDefinition i : indexes) {
      for (KeyAttribute k : i.keyAttributes()) {
        used.add(k.name());
      }
    }
    List<String> defined = new ArrayList<>();
    for (KeyAttribute d : definitions) {
      defined.add(d.name());
    }
    if (!used.containsAll(defined)) {
      throw invalid(
          "Some AttributeDefinitions are not used. AttributeDefinitions: ["
              + String.join(", ", defined) + "], keys used: [" + String.join(", ", used) + "]");
    }
  }

  /** At most 100 INCLUDE attributes across all indexes (one attribute in two indexes counts 2). */
  static void checkNonKeyAttributes(List<IndexDefinition> indexes) {
    int total = 0;
    for (IndexDefinition i : indexes) {
      total += i.nonKeyAttributes().size();
    }
    if (total > MAX_NON_KEY_ATTRIBUTES) {
      throw invalid(
          "The sum of NonKeyAttributes across all secondary indexes exceeds the limit of "
              + MAX_NON_KEY_ATTRIBUTES);
    }
  }

  private static List<KeyAttribute> keys(Given g, List<KeyAttribute> definitions) {
    List<String> keyNames = new ArrayList<>();
    for (KeySchemaElement e : g.keySchema()) {
      keyNames.add(e.attributeName());
    }
    List<String> defined = new ArrayList<>();
    for (KeyAttribute d : definitions) {
      defined.add(d.name());
    }
    if (!defined.containsAll(keyNames)) {
      throw invalid(
          "Some index key attributes are not defined in AttributeDefinitions. Keys: ["
              + String.join(", ", keyNames) + "], AttributeDefinitions: ["
              + String.join(", ", defined) + "]");
    }
    List<KeyAttribute> out = new ArrayList<>();
    for (String name : keyNames) {
      for (KeyAttribute d : definitions) {
        if (d.name().equals(name)) {
          out.add(d);
          break;
        }
      }
    }
    return out;
  }

  /** DynamoDB's limits on a multi-attribute GSI key: 4 partition and 4 sort key attributes. */
  static final int MAX_GLOBAL_KEY_ATTRIBUTES_PER_TYPE = 4;

  /**
   * The shape of an LSI key schema: one HASH then one RANGE element, as a table's.
   */
  private static void checkShape(Given g) {
    List<KeySchemaElement> ks = g.keySchema();
    if (ks.size() > 2) {
      throw DynamoDbException.validation(
          "1 validation error detected: Value '" + ks + "' at 'keySchema' failed to satisfy"
              + " constraint: Member must have length less than or equal to 2");
    }
    if (ks.size() == 2 && ks.get(0).attributeName().equals(ks.get(1).attributeName())) {
      throw DynamoDbException.validation(
          "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    }
    if (!"HASH".equals(ks.get(0).keyType())) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }
    if (ks.size() == 2 && !"RANGE".equals(ks.get(1).keyType())) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    }
  }

  /**
   * The shape of a GSI key schema. Since November 2025 a GSI key may have up to 4 partition
   * (HASH) and up to 4 sort (RANGE) attributes ("Each global secondary index supports up to 4
   * partition keys and up to 4 sort keys"), listed HASH ones first, then RANGE ones, each
   * attribute once. A one- or two-element schema keeps DynamoDB's classic messages; the
   * multi-attribute rules have no documented wording, so these messages are ours, in DynamoDB's
   * "Invalid KeySchema: ..." style.
   */
  private static void checkGlobalShape(Given g) {
    List<KeySchemaElement> ks = g.keySchema();
    if (ks.size() <= 2) {
      checkShape(g);
      return;
    }
    if (!"HASH".equals(ks.get(0).keyType())) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }
    Set<String> seen = new HashSet<>();
    int hash = 0;
    int range = 0;
    for (KeySchemaElement e : ks) {
      if (!seen.add(e.attributeName())) {
        throw DynamoDbException.validation(
            "Invalid KeySchema: Duplicate key attribute name " + e.attributeName()
                + " for index: " + g.indexName());
      }
      if ("HASH".equals(e.keyType())) {
        if (range > 0) {
          throw DynamoDbException.validation(
              "Invalid KeySchema: HASH KeySchemaElements must precede all RANGE KeySchemaElements"
                  + " for index: " + g.indexName());
        }
        hash++;
      } else {
        range++;
      }
    }
    if (hash > MAX_GLOBAL_KEY_ATTRIBUTES_PER_TYPE) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: A global secondary index supports at most "
              + MAX_GLOBAL_KEY_ATTRIBUTES_PER_TYPE + " HASH key attributes, but index "
              + g.indexName() + " has " + hash);
    }
    if (range > MAX_GLOBAL_KEY_ATTRIBUTES_PER_TYPE) {
      throw DynamoDbException.validation(
          "Invalid KeySchema: A global secondary index supports at most "
              + MAX_GLOBAL_KEY_ATTRIBUTES_PER_TYPE + " RANGE key attributes, but index "
              + g.indexName() + " has " + range);
    }
  }

  private static void checkProjection(Given g) {
    String type = g.projection().projectionType();
    if (type == null) {
      throw invalid("Unknown ProjectionType: null");
    }
    if (g.projection().nonKeyAttributes() != null && !type.equals(IndexDefinition.INCLUDE)) {
      throw invalid("ProjectionType is " + type + ", but NonKeyAttributes is specified");
    }
    if (g.projection().nonKeyAttributes() == null && type.equals(IndexDefinition.INCLUDE)) {
      throw invalid("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
    }
  }

  private static IndexDefinition definition(
      String tableId, Given g, List<KeyAttribute> keys, boolean global, long read, long write,
      String status) {
    int hashCount = 0;
    for (KeySchemaElement e : g.keySchema()) {
      if ("HASH".equals(e.keyType())) {
        hashCount++;
      }
    }
    List<String> nonKey =
        g.projection().nonKeyAttributes() == null ? List.of() : g.projection().nonKeyAttributes();
    // Each incarnation of an index gets its own space, so a re-created index never sees entries
    // of a deleted one, even if dropping the old space was interrupted.
    String space = SpaceNames.newIndex(tableId, g.indexName());
    return new IndexDefinition(
        g.indexName(), global, keys.subList(0, hashCount), keys.subList(hashCount, keys.size()),
        g.projection().projectionType(), nonKey, read, write, status, space,
        MaxThroughput.NONE);
  }

  static DynamoDbException invalid(String detail) {
    return DynamoDbException.validation("One or more parameter values were invalid: " + detail);
  }
}
