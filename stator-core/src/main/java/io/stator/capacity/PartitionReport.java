package io.stator.capacity;

import io.stator.key.KeyCodec;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Locale;

/**
 * What the partition model knows about one table or global secondary index ({@code indexName}
 * set): its throughput, its throttles and, per
 * partition, the consumption, the throttles and the hottest partition keys. Rates are averages
 * over the last {@value Partition#WINDOW} seconds; "peak" is the busiest single second among
 * them.
 */
public record PartitionReport(
    String tableName,
    String indexName,
    String billingMode,
    String capacityMode,
    Long provisionedReadCapacityUnits,
    Long provisionedWriteCapacityUnits,
    Double burstReadCapacityUnits,
    Double burstWriteCapacityUnits,
    long readThrottles,
    long writeThrottles,
    int splitsForHeat,
    int splitsForSize,
    int splitsForThroughput,
    List<PartitionStats> partitions) {

  /** One partition: the hash range {@code [start, end)} in hex. */
  public record PartitionStats(
      int index,
      String hashStart,
      String hashEnd,
      double readUnitsPerSecond,
      double writeUnitsPerSecond,
      double peakReadUnitsPerSecond,
      double peakWriteUnitsPerSecond,
      long readThrottles,
      long writeThrottles,
      double adaptiveReadUnits,
      double adaptiveWriteUnits,
      long sizeBytes,
      List<HotKey> hotKeys) {}

  /**
   * One partition key and the units it consumed (including throttled demand); {@code error} is
   * how much of that may belong to keys it displaced in the sketch.
   */
  public record HotKey(
      String partitionKey, double readUnits, double writeUnits, long throttles, double error) {}

  /** The key as a person reads it: the string, the number, or base64 bytes. */
  static String label(byte[] key, String type) {
    return AttributeValue.keyText(KeyCodec.decodePartition(key, type));
  }

  /** The report as a fixed-width text table, as {@code stator hot-keys} prints it. */
  public String text(int keysPerPartition) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Table %s", tableName));
    if (indexName != null) {
      out.append(String.format(Locale.ROOT, " index %s", indexName));
    }
    out.append(String.format(Locale.ROOT, " (%s", billingMode));
    if (provisionedReadCapacityUnits != null) {
      out.append(String.format(Locale.ROOT, ", %d RCU / %d WCU provisioned, burst %.0f / %.0f",
          provisionedReadCapacityUnits, provisionedWriteCapacityUnits, burstReadCapacityUnits,
          burstWriteCapacityUnits));
    }
    out.append(String.format(Locale.ROOT,
        "), capacity %s: %d partitions, %d read / %d write throttles, splits: %d heat, %d size,"
            + " %d throughput%n",
        capacityMode, partitions.size(), readThrottles, writeThrottles, splitsForHeat,
        splitsForSize, splitsForThroughput));
    out.append(String.format(Locale.ROOT, "%n%-4s %-16s %9s %9s %9s %9s %9s %9s  %s%n",
        "#", "hash from", "RCU/s", "WCU/s", "peak RCU", "peak WCU", "thr read", "thr write",
        "hottest partition keys (RCU+WCU, throttles)"));
    for (PartitionStats p : partitions) {
      StringBuilder keys = new StringBuilder();
      int shown = 0;
      for (HotKey k : p.hotKeys) {
        if (shown++ == keysPerPartition) {
          break;
        }
        if (keys.length() > 0) {
          keys.append(", ");
        }
        keys.append(String.format(Locale.ROOT, "%s (%s, %d)", k.partitionKey,
            units(k.readUnits + k.writeUnits), k.throttles));
      }
      out.append(String.format(Locale.ROOT, "%-4d %-16s %9s %9s %9s %9s %9d %9d  %s%n",
          p.index, p.hashStart, units(p.readUnitsPerSecond), units(p.writeUnitsPerSecond),
          units(p.peakReadUnitsPerSecond), units(p.peakWriteUnitsPerSecond), p.readThrottles,
          p.writeThrottles, keys));
    }
    return out.toString();
  }

  private static String units(double u) {
    return u == Math.rint(u) ? String.format(Locale.ROOT, "%.0f", u)
        : String.format(Locale.ROOT, "%.1f", u);
  }
}
