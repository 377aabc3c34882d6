package io.stator.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * The running totals behind {@link CapacityTotals}: read and write units per table and per GSI,
 * added after a charge is admitted, without a lock or an allocation once a table and index have
 * been seen (a {@link DoubleAdder} per figure, found by name).
 */
final class ConsumedUnits {
  /** The key of a table's own figures among its indexes'. */
  private static final String TABLE = "";

  private record Units(DoubleAdder read, DoubleAdder write) {
    Units() {
      this(new DoubleAdder(), new DoubleAdder());
    }
  }

  /** Per table name, per GSI name ({@link #TABLE} for the table). */
  private final Map<String, Map<String, Units>> units = new ConcurrentHashMap<>();

  void read(String table, String index, double consumed) {
    of(table, index).read().add(consumed);
  }

  void write(String table, String index, double consumed) {
    of(table, index).write().add(consumed);
  }

  /** Forgets a deleted table's totals, its indexes' too. */
  void forget(String table) {
    units.remove(table);
  }

  List<CapacityTotals.Consumed> totals() {
    List<CapacityTotals.Consumed> out = new ArrayList<>();
    units.forEach((table, indexes) -> indexes.forEach((index, u) -> out.add(
        new CapacityTotals.Consumed(table, index.equals(TABLE) ? null : index, u.read().sum(),
            u.write().sum()))));
    return out;
  }

  private Units of(String table, String index) {
    String key = index == null ? TABLE : index;
    Map<String, Units> indexes = units.get(table);
    if (indexes == null) {
      indexes = units.computeIfAbsent(table, t -> new ConcurrentHashMap<>());
    }
    Units u = indexes.get(key);
    return u != null ? u : indexes.computeIfAbsent(key, k -> new Units());
  }
}
