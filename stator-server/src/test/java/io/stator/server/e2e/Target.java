package io.stator.server.e2e;

import java.util.stream.Stream;

/**
 * Where an end-to-end test runs: the real server on one of the storage engines, or an external
 * DynamoDB-compatible endpoint named by the system property {@value #ENDPOINT_PROPERTY}.
 *
 * <p>The external mode exists to check the suite's expectations against another implementation
 * of DynamoDB's API; every behaviour test runs there unchanged, while the tests that need to
 * restart the server on its data directory are skipped.
 */
enum Target {
  MEMORY,
  ROCKSDB,
  EXTERNAL;

  static final String ENDPOINT_PROPERTY = "stator.e2e.endpoint";

  /** The targets of this run: the external endpoint alone when one is given, else both engines. */
  static Stream<Target> all() {
    return externalEndpoint() == null ? Stream.of(MEMORY, ROCKSDB) : Stream.of(EXTERNAL);
  }

  static String externalEndpoint() {
    String endpoint = System.getProperty(ENDPOINT_PROPERTY);
    return endpoint == null || endpoint.isBlank() ? null : endpoint;
  }

  boolean isDurable() {
    return this == ROCKSDB;
  }
}
