package io.stator.backup;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.GlobalSecondaryIndexInfo;
import io.stator.api.KeySchemaElement;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.LocalSecondaryIndexInfo;
import io.stator.api.OnDemandThroughput;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.SSEDescription;
import io.stator.api.SSESpecification;
import io.stator.api.SourceTableDetails;
import io.stator.api.SourceTableFeatureDetails;
import io.stator.api.TableDescription;
import io.stator.schema.TableDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The CreateTable a restore makes: the backed-up table's key schema, indexes, billing mode,
 * throughput and encryption, each replaced where the restore's override gives one. What
 * DynamoDB does not restore is left out: the stream, Time to Live, tags, deletion protection,
 * the table class (and auto scaling, which Stator does not have).
 *
 * <p>An index override names indexes of the backed-up table, with their key schema, and may
 * leave some out (an empty list: none); the rest of each, its projection and throughput, is the
 * override's. A table restored as PROVISIONED from an on-demand backup gives each kept GSI the
 * table's ProvisionedThroughputOverride unless its override says otherwise.
 */
final class RestoredTableRequest {
  private RestoredTableRequest() {}

  static CreateTableRequest of(RestoreTableFromBackupRequest r, SourceTableDetails source,
      SourceTableFeatureDetails features, TableDescription described) {
    String billing = r.billingModeOverride() != null ? r.billingModeOverride()
        : source.billingMode();
    boolean provisioned = TableDefinition.PROVISIONED.equals(billing);
    boolean wasProvisioned = TableDefinition.PROVISIONED.equals(source.billingMode());
    ProvisionedThroughput throughput = !provisioned ? null
        : r.provisionedThroughputOverride() != null ? r.provisionedThroughputOverride()
        : wasProvisioned ? source.provisionedThroughput() : null;
    OnDemandThroughput onDemand = provisioned ? null
        : r.onDemandThroughputOverride() != null ? r.onDemandThroughputOverride()
        : wasProvisioned ? null : source.onDemandThroughput();

    List<GlobalSecondaryIndex> globals = new ArrayList<>();
    List<GlobalSecondaryIndexInfo> sourceGlobals = orNone(features.globalSecondaryIndexes());
    if (r.globalSecondaryIndexOverride() != null) {
      for (GlobalSecondaryIndex g : r.globalSecondaryIndexOverride()) {
        match("GlobalSecondaryIndexOverride", g.indexName(), g.keySchema(), sourceGlobals.stream()
            .filter(s -> s.indexName().equals(g.indexName())).map(s -> s.keySchema()).toList());
        globals.add(g);
      }
    } else {
      for (GlobalSecondaryIndexInfo g : sourceGlobals) {
        ProvisionedThroughput indexThroughput = !provisioned ? null
            : wasProvisioned ? g.provisionedThroughput() : throughput;
        globals.add(new GlobalSecondaryIndex(g.indexName(), g.keySchema(), g.projection(),
            indexThroughput, provisioned ? null : g.onDemandThroughput()));
      }
    }
    List<LocalSecondaryIndex> locals = new ArrayList<>();
    List<LocalSecondaryIndexInfo> sourceLocals = orNone(features.localSecondaryIndexes());
    if (r.localSecondaryIndexOverride() != null) {
      for (LocalSecondaryIndex l : r.localSecondaryIndexOverride()) {
        match("LocalSecondaryIndexOverride", l.indexName(), l.keySchema(), sourceLocals.stream()
            .filter(s -> s.indexName().equals(l.indexName())).map(s -> s.keySchema()).toList());
        locals.add(l);
      }
    } else {
      for (LocalSecondaryIndexInfo l : sourceLocals) {
        locals.add(new LocalSecondaryIndex(l.indexName(), l.keySchema(), l.projection()));
      }
    }

    Set<String> keyed = new HashSet<>();
    source.keySchema().forEach(k -> keyed.add(k.attributeName()));
    globals.forEach(g -> g.keySchema().forEach(k -> keyed.add(k.attributeName())));
    locals.forEach(l -> l.keySchema().forEach(k -> keyed.add(k.attributeName())));
    List<AttributeDefinition> definitions = described.attributeDefinitions().stream()
        .filter(d -> keyed.contains(d.attributeName())).toList();

    return new CreateTableRequest(r.targetTableName(), definitions, source.keySchema(),
        locals.isEmpty() ? null : locals, globals.isEmpty() ? null : globals, billing,
        throughput, null, null, null, null, sse(r, features.sseDescription()), onDemand, null);
  }

  /** The override's, or the backed-up table's KMS key (DynamoDB's own key needs no asking). */
  private static SSESpecification sse(RestoreTableFromBackupRequest r, SSEDescription source) {
    if (r.sseSpecificationOverride() != null) {
      return r.sseSpecificationOverride();
    }
    return source == null ? null : new SSESpecification(true, "KMS", source.kmsMasterKeyArn());
  }

  /** Refuses an index override that names no index of the backup, or another key schema. */
  private static void match(String override, String name, List<KeySchemaElement> keySchema,
      List<List<KeySchemaElement>> found) {
    if (found.isEmpty()) {
      throw DynamoDbException.validation(override + ": the backup's table has no such index: "
          + name + "; an override may keep or leave out the backed-up table's indexes, not add"
          + " one (add it with UpdateTable once the table is restored)");
    }
    if (keySchema == null || !keySchema.equals(found.get(0))) {
      throw DynamoDbException.validation(override + ": the key schema of index " + name
          + " differs from the backed-up table's: " + found.get(0).stream()
              .map(k -> k.attributeName() + " " + k.keyType()).toList());
    }
  }

  private static <T> List<T> orNone(List<T> list) {
    return list == null ? List.of() : list;
  }
}
