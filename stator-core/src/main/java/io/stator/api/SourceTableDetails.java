package io.stator.api;

import java.time.Instant;
import java.util.List;

/**
 * The table a backup was taken of, as it was then: its size and item count are the backup's.
 * Null members are absent, as on the wire.
 */
public record SourceTableDetails(
    String tableName,
    String tableId,
    String tableArn,
    Long tableSizeBytes,
    List<KeySchemaElement> keySchema,
    Instant tableCreationDateTime,
    ProvisionedThroughput provisionedThroughput,
    OnDemandThroughput onDemandThroughput,
    Long itemCount,
    String billingMode) {}
