package io.stator.api;

import java.time.Instant;
import java.util.List;

/**
 * RestoreTableToPointInTime: a new table {@code targetTableName} holding the source table's items
 * as of {@code restoreDateTime} (or the latest restorable time), with the source's settings but
 * where an override says otherwise, as {@link RestoreTableFromBackupRequest}'s. The source is
 * named by {@code sourceTableName} or {@code sourceTableArn}. Null members are absent.
 */
public record RestoreTableToPointInTimeRequest(
    String sourceTableArn,
    String sourceTableName,
    String targetTableName,
    Boolean useLatestRestorableTime,
    Instant restoreDateTime,
    String billingModeOverride,
    List<GlobalSecondaryIndex> globalSecondaryIndexOverride,
    List<LocalSecondaryIndex> localSecondaryIndexOverride,
    ProvisionedThroughput provisionedThroughputOverride,
    OnDemandThroughput onDemandThroughputOverride,
    SSESpecification sseSpecificationOverride) {}
