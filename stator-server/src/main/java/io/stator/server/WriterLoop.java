package io.stator.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one event loop that makes a durable store's single-item writes (PutItem, UpdateItem,
 * DeleteItem): the other loops hand such a request over to it and send its answer when it comes
 * back. Reads and every other call stay on the connection's own loop.
 *
 * <p>With two loops, each making its own writes, the two met at the store's commit: one spun or
 * parked while the other wrote to RocksDB, and each found the memtable's and the log's cache
 * lines on the other core. A durable PutItem cost ~30 µs more CPU with two loops than with one;
 * with the writer loop it costs 7-22% less than without, UpdateItem and the 50/50 mix 1-12%
 * less (docs/performance.md, "Tenth round"). An in-memory commit takes microseconds and
 * memory's PutItem costs the same with one loop or two, so only a durable store has a writer
 * loop.
 *
 * <p>A connection's requests are answered in order (HTTP pipelining): while one of its requests
 * is away at the writer loop, the connection stops reading, and the requests it had already read
 * wait, in order, until the answer is written.
 */
final class WriterLoop {
  private static final Set<String> SINGLE_ITEM_WRITES = Set.of("PutItem", "UpdateItem", "DeleteItem");
  private static final AttributeKey<Away> AWAY = AttributeKey.valueOf("stator.writerLoop.away");

  private final EventExecutor loop;

  WriterLoop(EventExecutor loop) {
    this.loop = loop;
  }

  /** Whether a request for {@code operation}, read on the calling loop, goes to the writer loop. */
  boolean takes(String operation) {
    return operation != null && SINGLE_ITEM_WRITES.contains(operation) && !loop.inEventLoop();
  }

  /**
   * If a request of the connection is away at the writer loop, keeps {@code request} (retained)
   * to be read after its answer, and returns true: the caller leaves it alone.
   */
  boolean waitsBehind(ChannelHandlerContext ctx, FullHttpRequest request) {
    Away away = ctx.channel().attr(AWAY).get();
    if (away == null || !away.busy) {
      return false;
    }
    away.waiting.add(request.retain());
    return true;
  }

  /**
   * Runs {@code call} on the writer loop, then {@code answer} with its result on the connection's
   * loop, then reads ({@code read}, which does not release) the requests that waited meanwhile.
   * {@code request} stays retained until {@code call} has run.
   */
  <T> void handOver(
      ChannelHandlerContext ctx,
      FullHttpRequest request,
      Supplier<T> call,
      Consumer<T> answer,
      BiConsumer<ChannelHandlerContext, FullHttpRequest> read) {
    Away away = ctx.channel().attr(AWAY).get();
    if (away == null) {
      away = new Away();
      ctx.channel().attr(AWAY).set(away);
    }
    away.busy = true;
    ctx.channel().config().setAutoRead(false);
    Away sent = away;
    request.retain();
    Runnable atWriter =
        () -> {
          T result;
          try {
            result = call.get();
          } finally {
            request.release();
          }
          ctx.executor().execute(() -> answered(ctx, sent, answer, result, read));
        };
    try {
      loop.execute(atWriter);
    } catch (RejectedExecutionException shuttingDown) {
      atWriter.run(); // the server is closing: answer here
    }
  }

  private static <T> void answered(
      ChannelHandlerContext ctx,
      Away away,
      Consumer<T> answer,
      T result,
      BiConsumer<ChannelHandlerContext, FullHttpRequest> read) {
    away.busy = false;
    answer.accept(result);
    FullHttpRequest next;
    while (!away.busy && (next = away.waiting.poll()) != null) {
      try {
        if (ctx.channel().isActive()) {
          read.accept(ctx, next);
        }
      } finally {
        next.release();
      }
    }
    if (!away.busy) {
      ctx.channel().config().setAutoRead(true);
    }
  }

  /** Lets go of the requests a closed connection left waiting. */
  void closed(ChannelHandlerContext ctx) {
    Away away = ctx.channel().attr(AWAY).get();
    if (away != null) {
      FullHttpRequest r;
      while ((r = away.waiting.poll()) != null) {
        r.release();
      }
    }
  }

  /** A connection's request at the writer loop, and those read after it; on its own loop only. */
  private static final class Away {
    boolean busy;
    final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
  }
}
