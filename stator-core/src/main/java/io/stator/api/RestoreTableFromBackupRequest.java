package io.stator.api;

import java.util.List;

/**
 * RestoreTableFromBackup: a new table {@code targetTableName} from a backup, with the backed-up
 * table's settings but where an override says otherwise. Null members are absent, as on the
 * wire: an absent index override keeps every index of that kind, an empty one none.
 */
public record RestoreTableFromBackupRequest(
    String targetTableName,
    String backupArn,
    String billingModeOverride,
    List<GlobalSecondaryIndex> globalSecondaryIndexOverride,
    List<LocalSecondaryIndex> localSecondaryIndexOverride,
    ProvisionedThroughput provisionedThroughputOverride,
    OnDemandThroughput onDemandThroughputOverride,
    SSESpecification sseSpecificationOverride) {}
