package io.stator.api;

import java.util.List;

/** UpdateTable: add a global secondary index. Null members are absent, as on the wire. */
public record CreateGlobalSecondaryIndexAction(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection,
    ProvisionedThroughput provisionedThroughput,
    OnDemandThroughput onDemandThroughput) {

  /** An action without OnDemandThroughput. */
  public CreateGlobalSecondaryIndexAction(String indexName, List<KeySchemaElement> keySchema,
      Projection projection, ProvisionedThroughput provisionedThroughput) {
    this(indexName, keySchema, projection, provisionedThroughput, null);
  }
}
