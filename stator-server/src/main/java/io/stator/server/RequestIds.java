package io.stator.server;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code x-amzn-RequestId} of each response: a UUID made of a random number drawn once per
 * process and a counter. Unique within a process by the counter and, with overwhelming
 * probability, across processes by the random half; and cheap, where {@link UUID#randomUUID()}
 * drew 16 bytes from the shared {@link SecureRandom} (a synchronized generator) on every
 * request. Clients only echo the id in logs and error reports; nothing relies on it being
 * unpredictable.
 */
final class RequestIds {
  private static final long PROCESS = new SecureRandom().nextLong();
  private static final AtomicLong COUNTER = new AtomicLong();

  private RequestIds() {}

  static String next() {
    return new UUID(PROCESS, COUNTER.incrementAndGet()).toString();
  }
}
