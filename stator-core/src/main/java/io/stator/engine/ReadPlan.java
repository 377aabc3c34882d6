package io.stator.engine;

import io.stator.capacity.Consumption;
import io.stator.capacity.ReadConsistency;
import io.stator.expression.ConditionExpression;
import io.stator.expression.Path;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import java.util.List;

/**
 * A Query or Scan planned before it reads: the target (the table, or one of its indexes, with
 * the {@link ReadSource} that reads it), which entries it keeps ({@code filter}), what of them it
 * returns ({@code projection}, or only a count), how many it reads at most and how consistently.
 * The key range (Query) or segment (Scan) is the operation's own; reading a plan is one step for
 * both ({@code Reads.read}).
 *
 * @param index null for the table
 */
record ReadPlan(
    TableDefinition table,
    IndexDefinition index,
    ReadSource source,
    Integer limit,
    ConditionExpression filter,
    List<Path> projection,
    boolean countOnly,
    ReadConsistency consistency) {

  /**
   * The consumption of {@code units} read: the table's, or the index's when it read an index
   * (the capacity model charges a GSI's reads to the GSI's own partitions, an LSI's to the
   * table's); ReturnConsumedCapacity INDEXES names the index, as DynamoDB does.
   */
  Consumption consumption(double units) {
    Consumption consumption = new Consumption(table.name());
    if (index == null) {
      return consumption.tableRead(units);
    }
    return index.global()
        ? consumption.globalIndexRead(index.name(), units)
        : consumption.localIndexRead(index.name(), units);
  }
}
