package io.stator.server;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One kind of line the server writes to standard error when something goes wrong beside a
 * request (an accept that failed, a connection refused over the limit): at most one line a
 * second, with the number of occurrences since the last line, and never an exception.
 *
 * <p>Why not a logging framework, or Netty's logger: with every file descriptor taken, a logger
 * that opens a file dies, and it dies on the thread that called it. A probe showed it: Netty
 * logged an accept failure through java.util.logging, whose formatter read the time zone
 * database ({@code lib/tzdb.dat}) for the first time, could not open it ("Too many open files"),
 * and threw an {@link Error} that ended the event loop that owned the listening socket, so the
 * server never accepted again. So this class opens nothing, builds its line with a {@link
 * StringBuilder} (a string concatenation may spin a class on first use), loads nothing it did not
 * load in its constructor, and catches {@link Throwable}: a line may be lost, the thread never.
 */
final class ServerLog {
  private static final long SECOND = 1_000_000_000L;

  private final String what;
  private final AtomicLong occurrences = new AtomicLong();
  private final AtomicLong lastLine = new AtomicLong(System.nanoTime() - SECOND);
  private volatile long reported; // the occurrences the last line counted

  /** Lines that begin with {@code what}, e.g. {@code "stator: cannot accept a connection"}. */
  ServerLog(String what) {
    this.what = what;
    // What a line needs, loaded now, while files can still be opened.
    new StringBuilder().append(what).append(1L).append(": ").append(new Exception().toString());
  }

  /**
   * Counts one occurrence, and writes a line (with {@code detail} when not null) unless one was
   * written in the last second.
   */
  void occurred(Object detail) {
    try {
      long n = occurrences.incrementAndGet();
      long now = System.nanoTime();
      long last = lastLine.get();
      if (now - last < SECOND || !lastLine.compareAndSet(last, now)) {
        return;
      }
      long since = n - reported;
      reported = n;
      StringBuilder line = new StringBuilder(160).append(what);
      if (detail != null) {
        line.append(": ").append(detail);
      }
      if (since > 1) {
        line.append(" (").append(since).append(" times since the last report)");
      }
      PrintStream err = System.err;
      err.println(line);
    } catch (Throwable lost) {
      // The line is lost; the caller, often an event loop, goes on.
    }
  }

  /** The occurrences so far. */
  long count() {
    return occurrences.get();
  }
}
