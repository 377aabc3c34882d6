package io.stator.capacity;

/**
 * The numbers of the partition model. {@link #defaults()} are DynamoDB's published figures
 * where it publishes them, and documented choices where it does not.
 *
 * @param mode observe or enforce
 * @param adaptiveCapacity lend a hot partition the table's unused capacity (DynamoDB always
 *     does; turning it off shows the older behaviour, where each partition had only its share)
 * @param partitionReadCeiling RCU per second one partition serves at most: 3,000
 * @param partitionWriteCeiling WCU per second one partition serves at most: 1,000
 * @param burstSeconds unused provisioned capacity a table keeps for bursts: 300 seconds
 * @param partitionSizeLimit bytes after which a partition splits for size: 10 GB
 * @param heatThreshold share of a partition ceiling above which a second counts as hot
 * @param heatSeconds consecutive hot seconds after which a partition splits for heat (DynamoDB
 *     publishes no figure; it says "sustained"; we take one minute)
 * @param onDemandPartitions partitions of a new on-demand table: 4 (its documented initial
 *     4,000 WCU at 1,000 WCU per partition)
 * @param onDemandReadPeak the "previous peak" a new on-demand table starts from: 6,000 RCU,
 *     so it serves up to 12,000 RCU per second at once, as documented
 * @param onDemandWritePeak the same for writes: 2,000 WCU, so up to 4,000 WCU per second
 * @param hotKeys partition keys tracked per partition (the top-K sketch's size)
 */
public record CapacitySettings(
    CapacityMode mode,
    boolean adaptiveCapacity,
    double partitionReadCeiling,
    double partitionWriteCeiling,
    int burstSeconds,
    long partitionSizeLimit,
    double heatThreshold,
    int heatSeconds,
    int onDemandPartitions,
    double onDemandReadPeak,
    double onDemandWritePeak,
    int hotKeys) {

  public static CapacitySettings defaults() {
    return new CapacitySettings(
        CapacityMode.OBSERVE, true, 3000, 1000, 300, 10L * 1024 * 1024 * 1024, 0.8, 60, 4, 6000,
        2000, 16);
  }

  public CapacitySettings withMode(CapacityMode newMode) {
    return new CapacitySettings(
        newMode, adaptiveCapacity, partitionReadCeiling, partitionWriteCeiling, burstSeconds,
        partitionSizeLimit, heatThreshold, heatSeconds, onDemandPartitions, onDemandReadPeak,
        onDemandWritePeak, hotKeys);
  }

  public CapacitySettings withAdaptiveCapacity(boolean enabled) {
    return new CapacitySettings(
        mode, enabled, partitionReadCeiling, partitionWriteCeiling, burstSeconds,
        partitionSizeLimit, heatThreshold, heatSeconds, onDemandPartitions, onDemandReadPeak,
        onDemandWritePeak, hotKeys);
  }

  public CapacitySettings withPartitionSizeLimit(long bytes) {
    return new CapacitySettings(
        mode, adaptiveCapacity, partitionReadCeiling, partitionWriteCeiling, burstSeconds, bytes,
        heatThreshold, heatSeconds, onDemandPartitions, onDemandReadPeak, onDemandWritePeak,
        hotKeys);
  }

  public CapacitySettings withHeatSeconds(int seconds) {
    return new CapacitySettings(
        mode, adaptiveCapacity, partitionReadCeiling, partitionWriteCeiling, burstSeconds,
        partitionSizeLimit, heatThreshold, seconds, onDemandPartitions, onDemandReadPeak,
        onDemandWritePeak, hotKeys);
  }
}
