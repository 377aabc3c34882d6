package io.stator.server;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import io.stator.api.Database;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.ListTablesRequest;
import io.stator.api.ListTablesResponse;
import io.stator.api.TableDescription;
import io.stator.capacity.CapacityTotals;
import io.stator.index.IndexPropagation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The server's metrics in Prometheus's text format, for {@code GET /stator/metrics}: requests by
 * operation and outcome (success, or the error's type), their latency, throttled requests, the
 * connections, and each table's item count and size. Kept with the Prometheus Java client; the
 * tables' figures are read when scraped, so a scrape costs a DescribeTable per table.
 */
final class RequestMetrics {
  static final String PATH = "/stator/metrics";
  static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

  private static final Set<ErrorType> THROTTLES = EnumSet.of(
      ErrorType.ProvisionedThroughputExceededException, ErrorType.ThrottlingException,
      ErrorType.RequestLimitExceeded);

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Counter requests;
  private final Counter throttles;
  private final Histogram latency;
  private final Database database;
  private final ConcurrentHashMap<String, Served> byOperation = new ConcurrentHashMap<>();
  /** The tables as described once for the scrape under way, which both table gauges read. */
  private List<TableDescription> described = List.of();

  RequestMetrics(Database database, ConnectionLimit connections) {
    this.database = database;
    requests = Counter.builder()
        .name("stator_requests_total")
        .help("Requests answered, by operation and outcome (success, or the error's __type)")
        .labelNames("operation", "outcome")
        .register(registry);
    throttles = Counter.builder()
        .name("stator_throttled_requests_total")
        .help("Requests refused for capacity (enforce mode) or a request limit, by operation")
        .labelNames("operation")
        .register(registry);
    latency = Histogram.builder()
        .name("stator_request_duration_seconds")
        .help("Time from a request's body read to its answer written, by operation")
        .unit(Unit.SECONDS)
        .labelNames("operation")
        .classicOnly()
        .classicUpperBounds(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
            0.1, 0.25, 0.5, 1, 2.5, 5, 10)
        .register(registry);
    GaugeWithCallback.builder()
        .name("stator_connections_open")
        .help("Open client connections")
        .callback(callback -> callback.call(connections.open()))
        .register(registry);
    CounterWithCallback.builder()
        .name("stator_connections_refused_total")
        .help("Connections refused at the connection limit")
        .callback(callback -> callback.call(connections.refused()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("stator_table_items")
        .help("Items in a table, as DescribeTable counts them")
        .labelNames("table")
        .callback(callback -> described.forEach(t -> callback.call(
            t.itemCount() == null ? 0 : t.itemCount(), t.tableName())))
        .register(registry);
    GaugeWithCallback.builder()
        .name("stator_table_size_bytes")
        .help("A table's size, as DescribeTable reports it")
        .labelNames("table")
        .callback(callback -> described.forEach(t -> callback.call(
            t.tableSizeBytes() == null ? 0 : t.tableSizeBytes(), t.tableName())))
        .register(registry);
    registerIndexGauges();
    if (database instanceof CapacityTotals totals) {
      registerConsumedCapacity(totals);
    }
  }

  /**
   * Each GSI's backfill (1 while UpdateTable's new index is being filled from its table, then
   * 0) and each table's propagation backlog: the changes its GSIs have yet to apply.
   */
  private void registerIndexGauges() {
    GaugeWithCallback.builder()
        .name("stator_gsi_backfilling")
        .help("1 while a global secondary index added by UpdateTable is being backfilled, else 0")
        .labelNames("table", "index")
        .callback(callback -> described.forEach(t -> indexes(t).forEach(g -> callback.call(
            Boolean.TRUE.equals(g.backfilling()) ? 1 : 0, t.tableName(), g.indexName()))))
        .register(registry);
    if (database instanceof IndexPropagation backlog) {
      GaugeWithCallback.builder()
          .name("stator_gsi_propagation_backlog")
          .help("Changes of a table its global secondary indexes have yet to apply (counted up to "
              + IndexPropagation.COUNTED_UP_TO + ")")
          .labelNames("table")
          .callback(callback -> described.stream().filter(t -> !indexes(t).isEmpty())
              .forEach(t -> {
                try {
                  callback.call(backlog.propagationBacklog(t.tableName()), t.tableName());
                } catch (DynamoDbException deletedMeanwhile) {
                  // no figure for a table gone since it was described
                }
              }))
          .register(registry);
    }
  }

  /** Capacity units consumed since start, per table and GSI ({@code index=""}: the table). */
  private void registerConsumedCapacity(CapacityTotals totals) {
    consumed(totals, "read", "ConsumedReadCapacityUnits",
        CapacityTotals.Consumed::readCapacityUnits);
    consumed(totals, "write", "ConsumedWriteCapacityUnits",
        CapacityTotals.Consumed::writeCapacityUnits);
  }

  private void consumed(CapacityTotals totals, String kind, String cloudWatchName,
      ToDoubleFunction<CapacityTotals.Consumed> units) {
    CounterWithCallback.builder()
        .name("stator_consumed_" + kind + "_capacity_units_total")
        .help("Capacity units consumed, by table and global secondary index (index=\"\": the"
            + " table), as CloudWatch's " + cloudWatchName + " counts them")
        .labelNames("table", "index")
        .callback(callback -> totals.consumedCapacity().forEach(c -> callback.call(
            units.applyAsDouble(c), c.tableName(), c.indexName() == null ? "" : c.indexName())))
        .register(registry);
  }

  private static List<GlobalSecondaryIndexDescription> indexes(TableDescription table) {
    return table.globalSecondaryIndexes() == null ? List.of() : table.globalSecondaryIndexes();
  }

  /**
   * Counts one answered request: its operation (null for a target Stator does not serve), its
   * error's type (null on success) and how long it took.
   */
  void record(String operation, ErrorType error, long nanos) {
    String name = label(operation);
    Served served = served(name);
    served.latency().observe(nanos / 1e9);
    if (error == null) {
      served.succeeded().inc();
      return;
    }
    requests.labelValues(name, error.name()).inc();
    if (THROTTLES.contains(error)) {
      throttles.labelValues(name).inc();
    }
  }

  /** An operation's success count and latency, looked up by label once, not per request. */
  private record Served(CounterDataPoint succeeded, DistributionDataPoint latency) {}

  private Served served(String operation) {
    Served served = byOperation.get(operation);
    return served != null ? served : byOperation.computeIfAbsent(operation, name -> new Served(
        requests.labelValues(name, "success"), latency.labelValues(name)));
  }

  /**
   * Loads the classes a count and a scrape use, without counting anything or reading the
   * tables: at start, while the process can still open its jar.
   */
  void loadClasses() {
    requests.labelValues("Unknown", "success");
    requests.remove("Unknown", "success");
    latency.labelValues("Unknown");
    latency.remove("Unknown");
    throttles.labelValues("Unknown");
    throttles.remove("Unknown");
    try {
      writer.write(new ByteArrayOutputStream(), MetricSnapshots.of());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The metrics now, in Prometheus's text format; each table is described once. */
  synchronized byte[] scrape() {
    described = tables();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** DynamoDB's operation name (a Streams target's too), or "Unknown". */
  private static String label(String operation) {
    if (operation == null) {
      return "Unknown";
    }
    return operation.substring(operation.lastIndexOf('.') + 1);
  }

  /** Each table's description; none while the storage fails (the scrape still answers). */
  private List<TableDescription> tables() {
    List<TableDescription> tables = new ArrayList<>();
    String start = null;
    do {
      ListTablesResponse page;
      try {
        page = database.listTables(new ListTablesRequest(start, 100));
      } catch (RuntimeException storageFails) {
        return tables;
      }
      for (String name : page.tableNames()) {
        try {
          tables.add(database.describeTable(new DescribeTableRequest(name)).table());
        } catch (DynamoDbException deletedMeanwhile) {
          // A table deleted between the list and its description has no figures
        }
      }
      start = page.lastEvaluatedTableName();
    } while (start != null);
    return tables;
  }
}
