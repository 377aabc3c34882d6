package io.stator.schema;

import io.stator.value.AttributeValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ceilings an on-demand table or global secondary index was given (its
 * OnDemandThroughput): the most read and write request units it serves per second, each
 * {@link #UNLIMITED} when none was set or the last one was removed. The capacity model throttles
 * requests above them; a provisioned table has none.
 *
 * @param readRequestUnits MaxReadRequestUnits, or {@link #UNLIMITED}
 * @param writeRequestUnits MaxWriteRequestUnits, or {@link #UNLIMITED}
 */
public record MaxThroughput(long readRequestUnits, long writeRequestUnits) {
  /** No ceiling: DynamoDB's own value for a removed one (UpdateTable takes -1 to remove it). */
  public static final long UNLIMITED = -1;

  public static final MaxThroughput NONE = new MaxThroughput(UNLIMITED, UNLIMITED);

  public boolean limitsReads() {
    return readRequestUnits != UNLIMITED;
  }

  public boolean limitsWrites() {
    return writeRequestUnits != UNLIMITED;
  }

  public boolean isNone() {
    return !limitsReads() && !limitsWrites();
  }

  /**
   * The catalog's field (of a table, or of an index): a map with {@code read} and {@code write},
   * each present only when set. Absent while there is no ceiling, so records written before
   * the field existed read as {@link #NONE}.
   */
  AttributeValue encode() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    if (limitsReads()) {
      m.put("read", new AttributeValue.N(Long.toString(readRequestUnits)));
    }
    if (limitsWrites()) {
      m.put("write", new AttributeValue.N(Long.toString(writeRequestUnits)));
    }
    return new AttributeValue.M(m);
  }

  static MaxThroughput decode(AttributeValue v) {
    if (!(v instanceof AttributeValue.M map)) {
      return NONE;
    }
    Map<String, AttributeValue> m = map.value();
    return new MaxThroughput(units(m.get("read")), units(m.get("write")));
  }

  private static long units(AttributeValue v) {
    return v instanceof AttributeValue.N n ? Long.parseLong(n.value()) : UNLIMITED;
  }
}
