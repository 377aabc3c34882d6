package io.stator.server;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;

/**
 * What one client may hold of the server: connections, and the time a connection may stay idle
 * or take to send a request. Without them, a probe held 4,000 idle or half-sent connections for
 * as long as it liked, had a body read at one byte a second for 45 s, and took every file
 * descriptor.
 *
 * @param maxConnections connections served at once; one more is answered 503 ServiceUnavailable
 *     and closed
 * @param idleTimeout how long a connection may wait, with no request in progress and no answer
 *     owed, before it is closed ({@link Duration#ZERO}: never)
 * @param headerTimeout how long a request's line and headers may take from their first byte
 *     (then 408 and closed; zero: no limit)
 * @param bodyTimeout how long a request's body may take after its headers (then 408 and closed;
 *     zero: no limit)
 */
public record ServerLimits(
    int maxConnections, Duration idleTimeout, Duration headerTimeout, Duration bodyTimeout) {

  /**
   * Longer than the clients' own: the AWS SDK for Java closes a pooled connection idle for 60 s,
   * and a server that closed it first could close it just as the client sends on it.
   */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(2);

  /** Headers are a few hundred bytes: 10 s is slow for any network that can carry a request. */
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);

  /** Enough for DynamoDB's largest request, 16 MB, at 1 MB a second. */
  public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(30);

  /** Descriptors assumed available when the JVM cannot tell the process's limit. */
  private static final long UNKNOWN_DESCRIPTOR_LIMIT = 4096;

  public ServerLimits {
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections must be at least 1, not " + maxConnections);
    }
    for (Duration d : new Duration[] {idleTimeout, headerTimeout, bodyTimeout}) {
      if (d == null || d.isNegative()) {
        throw new IllegalArgumentException("a timeout must be zero or positive, not " + d);
      }
    }
  }

  /** The defaults: {@link #defaultMaxConnections()} and the default timeouts. */
  public static ServerLimits defaults() {
    return new ServerLimits(
        defaultMaxConnections(), DEFAULT_IDLE_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_BODY_TIMEOUT);
  }

  public ServerLimits withMaxConnections(int n) {
    return new ServerLimits(n, idleTimeout, headerTimeout, bodyTimeout);
  }

  public ServerLimits withIdleTimeout(Duration d) {
    return new ServerLimits(maxConnections, d, headerTimeout, bodyTimeout);
  }

  public ServerLimits withHeaderTimeout(Duration d) {
    return new ServerLimits(maxConnections, idleTimeout, d, bodyTimeout);
  }

  public ServerLimits withBodyTimeout(Duration d) {
    return new ServerLimits(maxConnections, idleTimeout, headerTimeout, d);
  }

  /**
   * Three quarters of the process's open-file limit (at most 64 fewer): a connection is one
   * descriptor, and the rest is left to what the server opens besides (RocksDB's files, its log,
   * the JVM's jars, the event loops' own descriptors), so that the limit refuses a connection
   * before the kernel refuses an accept.
   */
  public static int defaultMaxConnections() {
    return maxConnectionsFor(descriptorLimit());
  }

  static int maxConnectionsFor(long descriptors) {
    long headroom = Math.max(64, descriptors / 4);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, descriptors - headroom));
  }

  /** The process's open-file limit, as the JVM sees it (the soft limit, which it raises). */
  static long descriptorLimit() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof UnixOperatingSystemMXBean unix && unix.getMaxFileDescriptorCount() > 0) {
      return unix.getMaxFileDescriptorCount();
    }
    return UNKNOWN_DESCRIPTOR_LIMIT;
  }
}
