package io.stator.api;

import java.util.List;

/** CreateTable. Null members are absent, as on the wire. */
public record CreateTableRequest(
    String tableName,
    List<AttributeDefinition> attributeDefinitions,
    List<KeySchemaElement> keySchema,
    List<LocalSecondaryIndex> localSecondaryIndexes,
    List<GlobalSecondaryIndex> globalSecondaryIndexes,
    String billingMode,
    ProvisionedThroughput provisionedThroughput,
    StreamSpecification streamSpecification,
    List<Tag> tags,
    String tableClass,
    Boolean deletionProtectionEnabled,
    SSESpecification sseSpecification,
    OnDemandThroughput onDemandThroughput,
    String resourcePolicy) implements TableRequest {}
