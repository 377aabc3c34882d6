package io.stator.server.e2e;

import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Where an end-to-end test runs: the real server on one of the storage engines, or an external
 * DynamoDB-compatible endpoint named by the system property {@value #ENDPOINT_PROPERTY}.
 *
 * <p>{@link #CASSANDRA} runs the server on one Cassandra node started for the whole test JVM
 * ({@link CassandraForTests}); {@code -D}{@value #CASSANDRA_SKIP_PROPERTY} leaves it out, as it
 * leaves out the build's other Cassandra tests. {@code -D}{@value #TARGETS_PROPERTY}{@code
 * =CASSANDRA} (names separated by commas) runs the suite on the named storages only.
 *
 * <p>The external mode exists to check the suite's expectations against another implementation
 * of DynamoDB's API; every behaviour test runs there unchanged, while the tests that need to
 * restart the server on its data directory are skipped.
 */
enum Target {
  MEMORY,
  ROCKSDB,
  CASSANDRA,
  EXTERNAL;

  static final String ENDPOINT_PROPERTY = "stator.e2e.endpoint";
  static final String CASSANDRA_SKIP_PROPERTY = "cassandra.tests.skip";
  static final String TARGETS_PROPERTY = "stator.e2e.targets";

  /**
   * The targets of this run: the external endpoint alone when one is given, else the storages
   * named by {@value #TARGETS_PROPERTY}, else all three (Cassandra unless it is skipped).
   */
  static Stream<Target> all() {
    if (externalEndpoint() != null) {
      return Stream.of(EXTERNAL);
    }
    String named = System.getProperty(TARGETS_PROPERTY, "");
    if (!named.isBlank()) {
      return Arrays.stream(named.split(",")).map(String::trim).map(Target::valueOf);
    }
    return System.getProperty(CASSANDRA_SKIP_PROPERTY) == null
        ? Stream.of(MEMORY, ROCKSDB, CASSANDRA)
        : Stream.of(MEMORY, ROCKSDB);
  }

  static String externalEndpoint() {
    String endpoint = System.getProperty(ENDPOINT_PROPERTY);
    return endpoint == null || endpoint.isBlank() ? null : endpoint;
  }

  /** Whether the server keeps its tables across a restart on the same data directory. */
  boolean isDurable() {
    return this == ROCKSDB || this == CASSANDRA;
  }
}
