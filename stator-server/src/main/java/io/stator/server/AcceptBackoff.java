package io.stator.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;

/**
 * On the listening socket: when an accept fails, stops accepting for a short pause, then tries
 * again; pauses that follow one another without an accepted connection between them grow from
 * {@value #FIRST_PAUSE_MILLIS} ms to {@value #LONGEST_PAUSE_MILLIS} ms.
 *
 * <p>An accept fails when the process has no descriptor left for the new socket (EMFILE, or
 * ENFILE for the whole system): the connection stays in the kernel's backlog, so the listening
 * socket is at once ready again and a server that kept trying would spin on the failure. Paused,
 * it leaves the backlog alone until the pause ends; by then, connections closed meanwhile have
 * given their descriptors back, and the waiting clients are served. The connection limit ({@link
 * ConnectionLimit}), below the descriptor limit, should make this rare: it is for descriptors
 * taken by something else.
 *
 * <p>The failure stops here: nothing passes it on to the end of the pipeline, where Netty would
 * log it, and everything it does is inside a {@code catch (Throwable)}. Netty's own answer to an
 * accept failure (a 1 s pause, then the log) once ended the event loop that owned the listening
 * socket, the logger failing to open a file (see {@link ServerLog}); the process stayed up and
 * never accepted again.
 *
 * <p>{@link #problem()} tells the health check that the server is not accepting: while paused,
 * and for {@value #LONGEST_PAUSE_MILLIS} ms after the last failure (a kept-alive health check
 * would otherwise see the short moments between pauses as health).
 */
final class AcceptBackoff extends ChannelInboundHandlerAdapter {
  static final long FIRST_PAUSE_MILLIS = 50;
  static final long LONGEST_PAUSE_MILLIS = 1000;

  private final ServerLog failures = new ServerLog("stator: cannot accept a connection");
  /** The next pause; confined to the listening socket's event loop. */
  private long pauseMillis = FIRST_PAUSE_MILLIS;
  private volatile boolean paused;
  /** When the last accept failed (System.nanoTime), and why; null before any failure. */
  private volatile long lastFailureNanos;
  private volatile String lastFailure;
  private ChannelHandlerContext ctx;
  /** Made now: a lambda would spin its class at the first pause, when files cannot be opened. */
  private final Runnable resume =
      new Runnable() {
        @Override
        public void run() {
          try {
            paused = false;
            ctx.channel().config().setAutoRead(true);
          } catch (Throwable t) {
            paused = false; // the channel is closing; nothing to resume
          }
        }
      };

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  /** An accepted connection: the next failure pauses briefly again. */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object acceptedChannel) {
    pauseMillis = FIRST_PAUSE_MILLIS;
    ctx.fireChannelRead(acceptedChannel);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    try {
      lastFailureNanos = System.nanoTime();
      lastFailure = String.valueOf(cause.getMessage());
      failures.occurred(cause);
      if (!paused) {
        paused = true;
        ctx.channel().config().setAutoRead(false);
        ctx.executor().schedule(resume, pauseMillis, TimeUnit.MILLISECONDS);
        pauseMillis = Math.min(pauseMillis * 2, LONGEST_PAUSE_MILLIS);
      }
    } catch (Throwable t) {
      // A pause that was not scheduled is resumed by nothing: make sure the socket reads again.
      resume.run();
    }
  }

  /** Why the server accepts no connections now, or null when it does. */
  String problem() {
    String why = lastFailure;
    if (why == null) {
      return null;
    }
    if (paused
        || System.nanoTime() - lastFailureNanos
            < TimeUnit.MILLISECONDS.toNanos(LONGEST_PAUSE_MILLIS)) {
      return "cannot accept connections (" + why + ")";
    }
    return null;
  }

  /** The accepts that failed so far. */
  long failures() {
    return failures.count();
  }
}
