package io.stator.server;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.stator.storage.GroupCommit;

/**
 * The gate every byte passes on its way out of a connection: a flush goes on only once every
 * commit made so far is durable ({@link GroupCommit#awaitDurable}), so no answer leaves before
 * the writes it reports, or whose effects it read. It sits at the socket end of the pipeline,
 * where it sees the flushes of every handler, not only of {@link DynamoDbHandler}'s held answers
 * (a 413, a {@code 100 Continue}).
 *
 * <p>Cheap when there is nothing to write: the first flush after the commits of a turn writes the
 * log for all of them, and the flushes after it find them written. When the log cannot be
 * written, the connection closes and the answers written to it are dropped: its client sees a
 * dropped connection, never an acknowledgement of a write that may be lost.
 */
@ChannelHandler.Sharable
final class DurableFlush extends ChannelOutboundHandlerAdapter {
  private final GroupCommit durability;
  private final ServerLog durabilityFailures =
      new ServerLog("stator: cannot make writes durable; closing a connection that waits on them");

  DurableFlush(GroupCommit durability) {
    this.durability = durability;
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    try {
      durability.awaitDurable();
    } catch (Throwable e) { // an Error too: a flush runs on an event loop, which must not end
      durabilityFailures.occurred(e);
      ctx.close();
      return;
    }
    ctx.flush();
  }
}
