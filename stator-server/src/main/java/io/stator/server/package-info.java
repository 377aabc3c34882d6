/**
 * The DynamoDB HTTP endpoint: {@link io.stator.server.StatorServer} (Netty, HTTP/1.1 with
 * pipelining), the handler that checks each request's target, signature presence and size, the
 * Stator-only JSON endpoints (partitions, hot keys, the TTL sweep), and the {@code stator}
 * command line ({@link io.stator.server.Main}).
 */
package io.stator.server;
