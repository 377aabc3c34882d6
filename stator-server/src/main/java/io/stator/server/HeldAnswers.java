package io.stator.server;

import io.netty.channel.ChannelHandlerContext;
import io.stator.storage.GroupCommit;
import java.util.ArrayList;
import java.util.List;

/**
 * The answers one thread has written during one turn of its event loop, held until the commits
 * they tell of are durable; the thread's side of the storage's group commit ({@link GroupCommit}).
 *
 * <p>The thread answers each request it reads in the turn, writing the answer without sending it
 * (its commits are visible at once, durable later). After the turn, {@link #run} makes every
 * commit so far durable, with one write to the log for all of them, and only then sends the
 * answers. No answer leaves before the commits it reports, or those it read, are durable; so an
 * acknowledged write survives the death of the process as before, at the cost of one log write
 * per turn instead of one per write.
 *
 * <p>Confined to its thread: the handler creates one per thread, and the thread runs it.
 */
final class HeldAnswers implements Runnable {
  private final GroupCommit durability;
  private final List<ChannelHandlerContext> connections = new ArrayList<>();
  private boolean scheduled;

  /** Makes the calling thread defer its commits' durability; it must then run this. */
  HeldAnswers(GroupCommit durability) {
    this.durability = durability;
    durability.deferDurabilityOnThisThread();
  }

  /** Holds the answer just written to {@code ctx} until the end of the loop's turn. */
  void hold(ChannelHandlerContext ctx) {
    int last = connections.size() - 1;
    if (last < 0 || connections.get(last) != ctx) { // pipelined requests of one connection
      connections.add(ctx);
    }
    if (!scheduled) {
      scheduled = true;
      ctx.executor().execute(this); // runs after the turn's other reads
    }
  }

  /**
   * Sends the held answers once their commits are durable. When they cannot be made durable, the
   * connections are closed instead: their clients see a dropped connection, never an
   * acknowledgement of a write that may be lost.
   */
  @Override
  public void run() {
    scheduled = false;
    try {
      durability.awaitDurable();
    } catch (RuntimeException e) {
      System.err.println("Cannot make writes durable; closing the connections that wait on them:");
      e.printStackTrace();
      connections.forEach(ChannelHandlerContext::close);
      connections.clear();
      return;
    }
    connections.forEach(ChannelHandlerContext::flush);
    connections.clear();
  }
}
