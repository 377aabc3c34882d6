package io.stator.server;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The progress of {@code stator export} and {@code stator import} on the error output: on a
 * terminal, one line redrawn five times a second (items, bytes, the rates, and how far and the
 * time left when the total is known); elsewhere (a log, a pipe) a plain line every ten seconds;
 * and the summary at the end. The counts are kept here, added to by any thread.
 */
final class TransferProgress implements AutoCloseable {
  /** How progress is shown: {@code auto} picks {@code bar} on a terminal, else {@code lines}. */
  enum Mode {
    AUTO, BAR, LINES, NONE;

    static Mode of(String option) {
      for (Mode m : values()) {
        if (m.name().equalsIgnoreCase(option)) {
          return m;
        }
      }
      throw new IllegalArgumentException("--progress is auto, bar, lines or none, not "
          + option);
    }
  }

  private static final long BAR_EVERY_MS = 200;
  private static final long LINE_EVERY_MS = 10_000;
  private static final int BAR_WIDTH = 24;

  final AtomicLong items = new AtomicLong();
  final AtomicLong bytes = new AtomicLong();
  private final PrintWriter err;
  private final String verb;
  private final boolean bar;
  private final long started = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private volatile long total;
  private volatile boolean byBytes;
  private int drawn;

  /**
   * @param verb what is counted, as the lines say it ("exported", "imported")
   */
  TransferProgress(PrintWriter err, Mode mode, String verb) {
    this.err = err;
    this.verb = verb;
    Mode shown = mode == Mode.AUTO ? (System.console() != null ? Mode.BAR : Mode.LINES) : mode;
    this.bar = shown == Mode.BAR;
    if (shown == Mode.NONE) {
      ticker = null;
    } else {
      ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stator-progress");
        t.setDaemon(true);
        return t;
      });
      long every = bar ? BAR_EVERY_MS : LINE_EVERY_MS;
      ticker.scheduleAtFixedRate(this::show, every, every, TimeUnit.MILLISECONDS);
    }
  }

  /** The total to reach, in items, when known: the time left is then shown. */
  void totalItems(long n) {
    byBytes = false;
    total = n;
  }

  /** The total to reach, in bytes (the bytes counted are then those read of it). */
  void totalBytes(long n) {
    byBytes = true;
    total = n;
  }

  double seconds() {
    return (System.nanoTime() - started) / 1e9;
  }

  private synchronized void show() {
    String line = line();
    if (bar) {
      String padded = line.length() < drawn ? line + " ".repeat(drawn - line.length()) : line;
      err.print("\r" + padded);
      drawn = line.length();
    } else {
      err.println("stator: " + line);
    }
    err.flush();
  }

  private String line() {
    double s = Math.max(seconds(), 1e-3);
    long n = items.get();
    long b = bytes.get();
    StringBuilder out = new StringBuilder();
    long done = byBytes ? b : n;
    long of = total;
    if (of > 0) {
      double fraction = Math.min(1, (double) done / of);
      if (bar) {
        int filled = (int) (fraction * BAR_WIDTH);
        out.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled))
            .append("] ");
      }
      out.append(String.format(Locale.ROOT, "%3.0f%% ", fraction * 100));
    }
    out.append(String.format(Locale.ROOT, "%,d items %s, %s, %,.0f items/s, %s/s, %s elapsed",
        n, verb, megabytes(b), n / s, megabytes((long) (b / s)), clock(s)));
    if (of > 0 && done > 0 && done < of) {
      out.append(", ").append(clock((of - done) * s / done)).append(" left");
    }
    return out.toString();
  }

  /** Stops the progress line (its line ended on a terminal). */
  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
      if (bar && drawn > 0) {
        err.println();
        err.flush();
      }
    }
  }

  static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }

  private static String clock(double seconds) {
    long s = Math.round(seconds);
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  /**
   * The summary's rates and cost: seconds, items/s, MB/s and the JVM's peak heap (the most any
   * heap pool held, summed), which shows that a transfer streams.
   */
  String rates(long bytes) {
    double s = Math.max(seconds(), 1e-3);
    long n = items.get();
    return String.format(Locale.ROOT, "in %.1f s: %,.0f items/s, %.1f MB/s; peak heap %.0f MB",
        s, n / s, bytes / 1e6 / s, peakHeap() / 1e6);
  }

  private static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
