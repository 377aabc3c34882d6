package io.stator.api;

import java.util.List;

/**
 * The features of a backed-up table when the backup was taken: its indexes, stream, Time to Live
 * and encryption. Null members are absent, as on the wire.
 */
public record SourceTableFeatureDetails(
    List<LocalSecondaryIndexInfo> localSecondaryIndexes,
    List<GlobalSecondaryIndexInfo> globalSecondaryIndexes,
    StreamSpecification streamDescription,
    TimeToLiveDescription timeToLiveDescription,
    SSEDescription sseDescription) {}
