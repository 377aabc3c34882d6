package io.stator.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One HTTP connection between its requests and its answers: the deadlines that close a
 * connection which holds the server without using it, and the answers owed to a client that
 * half-closed.
 *
 * <p><b>Deadlines.</b> Sitting behind the HTTP decoder, this handler sees a request's headers
 * arrive ({@link HttpRequest}), its body end ({@link LastHttpContent}), each read of the socket
 * (a read that decoded nothing on a connection between requests is the start of the next one)
 * and each answer written. So a connection is always in one of four states, and three of them
 * have a deadline:
 *
 * <ul>
 *   <li>between requests, owing no answer: closed {@link ServerLimits#idleTimeout()} after its
 *       last answer (or its opening);
 *   <li>receiving a request's line and headers: answered 408 and closed {@link
 *       ServerLimits#headerTimeout()} after their first byte (slowloris);
 *   <li>receiving a body: answered 408 and closed {@link ServerLimits#bodyTimeout()} after the
 *       headers;
 *   <li>owing answers: no deadline, the wait is the server's.
 * </ul>
 *
 * <p>A 408 is written only when no answer is owed (it would otherwise answer an earlier
 * pipelined request); else the connection just closes. A deadline counts from the start of its
 * state: bytes trickling in do not push it back.
 *
 * <p>Cheap on the hot path: a request costs two reads of the clock and a few field writes. One
 * check per connection is scheduled at a time, for its earliest deadline; when it runs and finds
 * the deadline moved later (the connection was busy), it schedules itself again for the new one.
 * A check is rescheduled earlier only when a read ends inside a request (a request split across
 * reads), never for a request that arrives in one read. A pipelined request whose first bytes
 * came in the same read as the end of the one before it is still taken for idle until its next
 * byte: its headers then get their full timeout, so it holds the connection at most the idle
 * timeout longer.
 *
 * <p><b>Half-close.</b> A client may send its request and then shut down its side of the
 * connection ({@code shutdownOutput}), and HTTP/1.1 still owes it the answer. The server's
 * connections allow half-closure, so the end of the input is an event here rather than a close:
 * the connection closes once every request already read has been answered and the answers have
 * left. (Before, the connection closed at the end of the input, and a PutItem sent that way was
 * applied but never answered.) A request cut off by the end of the input is never answered.
 */
final class HttpConnection extends ChannelDuplexHandler implements Runnable {
  private static final int BETWEEN = 0;
  private static final int HEADERS = 1;
  private static final int BODY = 2;
  private static final byte[] TIMEOUT = "Request Timeout".getBytes(StandardCharsets.US_ASCII);

  /** Connections closed by a deadline, counted across the server. */
  static final class Closes {
    final LongAdder idle = new LongAdder();
    final LongAdder slowRequests = new LongAdder();
  }

  private final long idleNanos;
  private final long headerNanos;
  private final long bodyNanos;
  private final Closes closes;

  private ChannelHandlerContext ctx;
  private int phase = BETWEEN;
  /** When the current header or body phase started (System.nanoTime). */
  private long phaseSince;
  /** When the connection last owed nothing and expected nothing (System.nanoTime). */
  private long idleSince;
  /** Requests read in full and not yet answered. */
  private int owed;
  private boolean decodedInThisRead;
  private boolean inputShut;
  private ChannelFuture lastAnswer;
  private ScheduledFuture<?> check;
  private long checkAt;

  HttpConnection(ServerLimits limits, Closes closes) {
    this.idleNanos = limits.idleTimeout().toNanos();
    this.headerNanos = limits.headerTimeout().toNanos();
    this.bodyNanos = limits.bodyTimeout().toNanos();
    this.closes = closes;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    idleSince = System.nanoTime();
    checkBy(deadline());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest) {
      phase = BODY;
      phaseSince = System.nanoTime();
      decodedInThisRead = true;
    }
    if (msg instanceof LastHttpContent) {
      phase = BETWEEN;
      owed++;
      decodedInThisRead = true;
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (phase == BETWEEN && !decodedInThisRead && !inputShut) {
      // Bytes came and made no request yet: the next request's line and headers begin.
      phase = HEADERS;
      phaseSince = System.nanoTime();
    }
    decodedInThisRead = false;
    if (phase != BETWEEN) {
      checkBy(deadline());
    }
    ctx.fireChannelReadComplete();
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof LastHttpContent && !informational(msg) && owed > 0) {
      owed--;
      if (owed == 0) {
        idleSince = System.nanoTime();
        promise = promise.unvoid();
        lastAnswer = promise;
        if (inputShut) {
          promise.addListener(ChannelFutureListener.CLOSE);
        } else if (phase == BETWEEN) {
          checkBy(deadline());
        }
      }
    }
    ctx.write(msg, promise);
  }

  private static boolean informational(Object msg) {
    return msg instanceof HttpResponse r
        && r.status().codeClass() == HttpStatusClass.INFORMATIONAL; // 100 Continue
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof ChannelInputShutdownEvent) {
      inputShut = true;
      if (owed == 0) {
        closeAfterLastAnswer();
      } // else the last answer's write closes it
    }
    ctx.fireUserEventTriggered(event);
  }

  private void closeAfterLastAnswer() {
    if (lastAnswer != null && !lastAnswer.isDone()) {
      lastAnswer.addListener(ChannelFutureListener.CLOSE);
    } else {
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (check != null) {
      check.cancel(false);
      check = null;
    }
    ctx.fireChannelInactive();
  }

  /** The current state's deadline (System.nanoTime), or Long.MAX_VALUE for none. */
  private long deadline() {
    return switch (phase) {
      case HEADERS -> headerNanos == 0 ? Long.MAX_VALUE : phaseSince + headerNanos;
      case BODY -> bodyNanos == 0 ? Long.MAX_VALUE : phaseSince + bodyNanos;
      default -> owed > 0 || idleNanos == 0 ? Long.MAX_VALUE : idleSince + idleNanos;
    };
  }

  /** Makes sure a check runs by {@code deadline}. */
  private void checkBy(long deadline) {
    if (deadline == Long.MAX_VALUE || (check != null && checkAt - deadline <= 0)) {
      return;
    }
    if (check != null) {
      check.cancel(false);
    }
    schedule(deadline);
  }

  private void schedule(long deadline) {
    checkAt = deadline;
    long delay = Math.max(0, deadline - System.nanoTime());
    check = ctx.executor().schedule(this, delay, TimeUnit.NANOSECONDS);
  }

  /** The scheduled check: closes the connection if its deadline has passed, else waits again. */
  @Override
  public void run() {
    check = null;
    try {
      if (!ctx.channel().isActive()) {
        return;
      }
      long deadline = deadline();
      if (deadline == Long.MAX_VALUE) {
        return; // owing answers: the answer's write schedules the idle check
      }
      if (deadline - System.nanoTime() > 0) {
        schedule(deadline);
        return;
      }
      if (phase == BETWEEN) {
        closes.idle.increment();
        ctx.close();
      } else {
        closes.slowRequests.increment();
        timedOut();
      }
    } catch (Throwable t) {
      // A check may not end the event loop it runs on; the connection is what it judged.
      ctx.close();
    }
  }

  /** Answers 408 Request Timeout when no answer is owed, then closes. */
  private void timedOut() {
    if (owed > 0) {
      ctx.close();
      return;
    }
    ByteBuf body = ctx.alloc().buffer(TIMEOUT.length).writeBytes(TIMEOUT);
    FullHttpResponse response = DynamoDbHandler.response(HttpResponseStatus.REQUEST_TIMEOUT, body);
    DynamoDbHandler.setHeaders(response, "text/plain", body);
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    phase = BETWEEN;
  }
}
