package io.stator.capacity;

import io.stator.schema.IndexDefinition;
import io.stator.schema.MaxThroughput;
import io.stator.schema.TableDefinition;

/**
 * The throughput a table or a global secondary index is given: its billing mode and, when
 * provisioned, its read and write capacity units; when on-demand, the ceilings of its
 * OnDemandThroughput. A GSI has throughput of its own, set apart from its table's, and the
 * table's billing mode.
 */
record Throughput(String billingMode, long read, long write, MaxThroughput max) {
  static Throughput of(TableDefinition table) {
    return new Throughput(table.billingMode(), table.readCapacityUnits(),
        table.writeCapacityUnits(), table.maxThroughput());
  }

  static Throughput of(TableDefinition table, IndexDefinition index) {
    return new Throughput(table.billingMode(), index.readCapacityUnits(),
        index.writeCapacityUnits(), index.maxThroughput());
  }
}
