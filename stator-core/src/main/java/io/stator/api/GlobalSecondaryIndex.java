package io.stator.api;

import java.util.List;

/** A global secondary index, as given to CreateTable. Null members are absent, as on the wire. */
public record GlobalSecondaryIndex(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection,
    ProvisionedThroughput provisionedThroughput,
    OnDemandThroughput onDemandThroughput) {

  /** An index without OnDemandThroughput. */
  public GlobalSecondaryIndex(String indexName, List<KeySchemaElement> keySchema,
      Projection projection, ProvisionedThroughput provisionedThroughput) {
    this(indexName, keySchema, projection, provisionedThroughput, null);
  }
}
