package io.stator.server;

import io.netty.channel.ChannelHandlerContext;
import io.stator.storage.GroupCommit;
import java.util.ArrayList;
import java.util.List;

/**
 * The answers one thread has written during one turn of its event loop, sent together after the
 * turn; the thread's side of the storage's group commit ({@link GroupCommit}).
 *
 * <p>The thread defers the durability of its commits and answers each request it reads in the
 * turn, writing the answer without sending it (its commits are visible at once, durable later).
 * After the turn, {@link #run} flushes the connections; the first flush passes {@link
 * DurableFlush}, which writes the log for every commit so far, and the others find their
 * commits written. So the turn's writes share one write to the log, and an acknowledged write
 * survives the death of the process as before.
 *
 * <p>Confined to its thread: the handler creates one per thread, and the thread runs it.
 */
final class HeldAnswers implements Runnable {
  private final List<ChannelHandlerContext> connections = new ArrayList<>();
  private boolean scheduled;

  /** Makes the calling thread defer its commits' durability; it must then run this. */
  HeldAnswers(GroupCommit durability) {
    durability.deferDurabilityOnThisThread();
  }

  /** Holds the answer just written to {@code ctx} until the end of the loop's turn. */
  void hold(ChannelHandlerContext ctx) {
    if (ctx.executor().isShuttingDown()) {
      ctx.flush(); // a loop that shuts down may close its connections before it runs this
      return;
    }
    int last = connections.size() - 1;
    if (last < 0 || connections.get(last) != ctx) { // pipelined requests of one connection
      connections.add(ctx);
    }
    if (!scheduled) {
      ctx.executor().execute(this); // runs after the turn's other reads
      scheduled = true;
    }
  }

  /** Sends the held answers, once their commits are durable (see {@link DurableFlush}). */
  @Override
  public void run() {
    scheduled = false;
    try {
      // A handler's failure in a flush reaches exceptionCaught (Netty catches it), where the
      // connection closes; nothing of it reaches this loop.
      connections.forEach(ChannelHandlerContext::flush);
    } finally {
      connections.clear();
    }
  }
}
