package io.stator.api;

import java.time.Instant;
import java.util.List;

/** Everything DescribeTable tells about a table. Null members are absent, as on the wire. */
public record TableDescription(
    List<AttributeDefinition> attributeDefinitions,
    String tableName,
    List<KeySchemaElement> keySchema,
    String tableStatus,
    Instant creationDateTime,
    ProvisionedThroughputDescription provisionedThroughput,
    Long tableSizeBytes,
    Long itemCount,
    String tableArn,
    String tableId,
    BillingModeSummary billingModeSummary,
    List<LocalSecondaryIndexDescription> localSecondaryIndexes,
    List<GlobalSecondaryIndexDescription> globalSecondaryIndexes,
    StreamSpecification streamSpecification,
    String latestStreamLabel,
    String latestStreamArn,
    Boolean deletionProtectionEnabled,
    TableClassSummary tableClassSummary,
    SSEDescription sseDescription,
    OnDemandThroughput onDemandThroughput,
    RestoreSummary restoreSummary) {

  /** This description with {@code ceilings} as its OnDemandThroughput. */
  public TableDescription withOnDemandThroughput(OnDemandThroughput ceilings) {
    return new TableDescription(attributeDefinitions, tableName, keySchema, tableStatus,
        creationDateTime, provisionedThroughput, tableSizeBytes, itemCount, tableArn, tableId,
        billingModeSummary, localSecondaryIndexes, globalSecondaryIndexes, streamSpecification,
        latestStreamLabel, latestStreamArn, deletionProtectionEnabled, tableClassSummary,
        sseDescription, ceilings, restoreSummary);
  }
}
