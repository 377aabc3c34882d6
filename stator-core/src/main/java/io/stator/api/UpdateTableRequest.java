package io.stator.api;

import java.util.List;

/** UpdateTable. Null members are absent, as on the wire. */
public record UpdateTableRequest(
    String tableName,
    List<AttributeDefinition> attributeDefinitions,
    String billingMode,
    ProvisionedThroughput provisionedThroughput,
    List<GlobalSecondaryIndexUpdate> globalSecondaryIndexUpdates,
    StreamSpecification streamSpecification,
    String tableClass,
    Boolean deletionProtectionEnabled,
    SSESpecification sseSpecification,
    OnDemandThroughput onDemandThroughput) implements TableRequest {

  /** A request without SSESpecification and OnDemandThroughput. */
  public UpdateTableRequest(
      String tableName,
      List<AttributeDefinition> attributeDefinitions,
      String billingMode,
      ProvisionedThroughput provisionedThroughput,
      List<GlobalSecondaryIndexUpdate> globalSecondaryIndexUpdates,
      StreamSpecification streamSpecification,
      String tableClass,
      Boolean deletionProtectionEnabled) {
    this(tableName, attributeDefinitions, billingMode, provisionedThroughput,
        globalSecondaryIndexUpdates, streamSpecification, tableClass, deletionProtectionEnabled,
        null, null);
  }
}
