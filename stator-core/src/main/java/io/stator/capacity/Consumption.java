package io.stator.capacity;

import io.stator.api.Capacity;
import io.stator.api.ConsumedCapacity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;

/**
 * The capacity one operation consumed on one table and its indexes, and its answer to
 * ReturnConsumedCapacity. An operation adds what it consumed ({@link #tableRead}, {@link
 * #tableWrite}, {@link #globalIndexWrite}, ...) and asks for {@link #consumedCapacity}; a
 * multi-table operation (BatchGetItem, TransactWriteItems) keeps one per table.
 *
 * <p>The shape DynamoDB answers with: NONE (or no parameter) returns nothing. TOTAL returns
 * the table name and the total CapacityUnits. INDEXES adds {@code Table} with the base table's
 * share and, for each index touched, an entry in {@code LocalSecondaryIndexes} or {@code
 * GlobalSecondaryIndexes}, each a {@link Capacity} of CapacityUnits alone. Only the
 * transactions ({@link #transactional}) add the read/write split (ReadCapacityUnits for a read,
 * WriteCapacityUnits for a write) at the top and in each {@link Capacity}, as DynamoDB answers
 * them. Members that are zero are absent, as DynamoDB omits them.
 */
public final class Consumption {
  /** The values ReturnConsumedCapacity accepts, in DynamoDB's order. */
  public static final String[] RETURN_CONSUMED_CAPACITY = {"INDEXES", "TOTAL", "NONE"};

  private final String tableName;
  private final boolean split;
  private final Units table = new Units();
  private final Map<String, Units> localIndexes = new LinkedHashMap<>();
  private final Map<String, Units> globalIndexes = new LinkedHashMap<>();

  public Consumption(String tableName) {
    this(tableName, false);
  }

  private Consumption(String tableName, boolean split) {
    this.tableName = tableName;
    this.split = split;
  }

  /** The consumption of a TransactWriteItems or TransactGetItems on one table. */
  public static Consumption transactional(String tableName) {
    return new Consumption(tableName, true);
  }

  public Consumption tableRead(double units) {
    table.read += units;
    return this;
  }

  public Consumption tableWrite(double units) {
    table.write += units;
    return this;
  }

  public Consumption localIndexRead(String index, double units) {
    localIndexes.computeIfAbsent(index, k -> new Units()).read += units;
    return this;
  }

  public Consumption localIndexWrite(String index, double units) {
    localIndexes.computeIfAbsent(index, k -> new Units()).write += units;
    return this;
  }

  public Consumption globalIndexRead(String index, double units) {
    globalIndexes.computeIfAbsent(index, k -> new Units()).read += units;
    return this;
  }

  public Consumption globalIndexWrite(String index, double units) {
    globalIndexes.computeIfAbsent(index, k -> new Units()).write += units;
    return this;
  }

  public double readUnits() {
    double units = table.read;
    for (Units u : localIndexes.values()) {
      units += u.read;
    }
    for (Units u : globalIndexes.values()) {
      units += u.read;
    }
    return units;
  }

  public double writeUnits() {
    double units = table.write;
    for (Units u : localIndexes.values()) {
      units += u.write;
    }
    for (Units u : globalIndexes.values()) {
      units += u.write;
    }
    return units;
  }

  /**
   * Whether {@code returnConsumedCapacity} asks for an answer (TOTAL or INDEXES; null is NONE):
   * an operation that builds its Consumption only when asked checks this first.
   */
  public static boolean requested(String returnConsumedCapacity) {
    return returnConsumedCapacity != null && !returnConsumedCapacity.equals("NONE");
  }

  /**
   * The ConsumedCapacity for {@code returnConsumedCapacity} (NONE, TOTAL or INDEXES; null is
   * NONE): null for NONE.
   */
  public ConsumedCapacity consumedCapacity(String returnConsumedCapacity) {
    if (!requested(returnConsumedCapacity)) {
      return null;
    }
    double read = readUnits();
    double write = writeUnits();
    Double shownRead = split ? positive(read) : null;
    Double shownWrite = split ? positive(write) : null;
    if (!returnConsumedCapacity.equals("INDEXES")) {
      return new ConsumedCapacity(
          tableName, read + write, shownRead, shownWrite, null, null, null);
    }
    return new ConsumedCapacity(
        tableName,
        read + write,
        shownRead,
        shownWrite,
        table.capacity(split),
        capacities(localIndexes),
        capacities(globalIndexes));
  }

  /**
   * The ConsumedCapacity list of a multi-table operation (BatchGetItem, BatchWriteItem,
   * TransactGetItems, TransactWriteItems): one entry per table, in the order given; null for
   * NONE.
   */
  public static List<ConsumedCapacity> list(
      Collection<Consumption> perTable, String returnConsumedCapacity) {
    if (!requested(returnConsumedCapacity)) {
      return null;
    }
    List<ConsumedCapacity> out = new ArrayList<>(perTable.size());
    for (Consumption c : perTable) {
      out.add(c.consumedCapacity(returnConsumedCapacity));
    }
    return out;
  }

  /**
   * Two answers' ConsumedCapacity of one table as one (a SELECT's Queries over several
   * partitions): each figure summed, absent where both lack it; null where both are.
   */
  public static ConsumedCapacity sum(ConsumedCapacity a, ConsumedCapacity b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return new ConsumedCapacity(
        a.tableName(),
        add(a.capacityUnits(), b.capacityUnits()),
        add(a.readCapacityUnits(), b.readCapacityUnits()),
        add(a.writeCapacityUnits(), b.writeCapacityUnits()),
        sum(a.table(), b.table()),
        merge(a.localSecondaryIndexes(), b.localSecondaryIndexes()),
        merge(a.globalSecondaryIndexes(), b.globalSecondaryIndexes()));
  }

  private static Capacity sum(Capacity a, Capacity b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return new Capacity(
        add(a.readCapacityUnits(), b.readCapacityUnits()),
        add(a.writeCapacityUnits(), b.writeCapacityUnits()),
        add(a.capacityUnits(), b.capacityUnits()));
  }

  private static Map<String, Capacity> merge(Map<String, Capacity> a, Map<String, Capacity> b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    Map<String, Capacity> merged = new HashMap<>(a);
    BinaryOperator<Capacity> plus = Consumption::sum;
    b.forEach((index, capacity) -> merged.merge(index, capacity, plus));
    return merged;
  }

  private static Double add(Double a, Double b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return a + b;
  }

  private Map<String, Capacity> capacities(Map<String, Units> units) {
    if (units.isEmpty()) {
      return null;
    }
    Map<String, Capacity> out = new LinkedHashMap<>();
    units.forEach((name, u) -> out.put(name, u.capacity(split)));
    return out;
  }

  private static Double positive(double units) {
    return units > 0 ? units : null;
  }

  private static final class Units {
    double read;
    double write;

    Capacity capacity(boolean split) {
      return split
          ? new Capacity(positive(read), positive(write), read + write)
          : new Capacity(null, null, read + write);
    }
  }
}
