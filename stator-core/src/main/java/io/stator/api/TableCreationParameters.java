package io.stator.api;

import java.util.List;

/** The table an import makes: CreateTable's members that ImportTable takes. */
public record TableCreationParameters(
    String tableName,
    List<AttributeDefinition> attributeDefinitions,
    List<KeySchemaElement> keySchema,
    String billingMode,
    ProvisionedThroughput provisionedThroughput,
    OnDemandThroughput onDemandThroughput,
    SSESpecification sseSpecification,
    List<GlobalSecondaryIndex> globalSecondaryIndexes) {

  /** The CreateTable these parameters stand for. */
  public CreateTableRequest createTableRequest() {
    return new CreateTableRequest(tableName, attributeDefinitions, keySchema, null,
        globalSecondaryIndexes, billingMode, provisionedThroughput, null, null, null, null,
        sseSpecification, onDemandThroughput, null);
  }
}
