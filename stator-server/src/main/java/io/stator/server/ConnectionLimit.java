package io.stator.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.AsciiString;
import io.stator.api.ErrorType;
import io.stator.server.wire.WireProtocol;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

/**
 * The connections served at once, at most {@link ServerLimits#maxConnections()}: one more is
 * answered {@code 503} ServiceUnavailable (which the SDKs retry) and closed, without reading its
 * request, and counted.
 *
 * <p>The limit is below the process's descriptor limit (see {@link
 * ServerLimits#defaultMaxConnections()}), so that a flood of connections is refused here, in
 * HTTP, while the server still has descriptors for its storage and its refusals, rather than by
 * the kernel at accept (see {@link AcceptBackoff}). A refused connection holds its descriptor
 * only until its answer is written.
 *
 * <p>A client that sent its request before the refusal may see the connection reset instead of
 * the 503 (the kernel resets a connection closed with unread bytes): either way it knows it was
 * not served.
 */
final class ConnectionLimit {
  private final int max;
  private final AtomicInteger open = new AtomicInteger();
  private final ServerLog refusals;
  /** Everything of a refusal but its date and request id, which follow. */
  private final byte[] head;
  private final byte[] tail;
  private final ChannelFutureListener released = future -> open.decrementAndGet();

  ConnectionLimit(int max) {
    this.max = max;
    this.refusals =
        new ServerLog(
            "stator: refused a connection over the limit of " + max + " (--max-connections)");
    ByteBuf body = Unpooled.buffer();
    try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
      WireProtocol.writeError(
          ErrorType.ServiceUnavailable,
          "The server serves at most " + max + " connections at once; try again later",
          null,
          out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] json = new byte[body.readableBytes()];
    body.readBytes(json);
    CRC32 crc = new CRC32();
    crc.update(json);
    this.head =
        ("HTTP/1.1 503 Service Unavailable\r\n"
                + "Content-Type: " + DynamoDbHandler.AMZ_JSON + "\r\n"
                + "Content-Length: " + json.length + "\r\n"
                + "x-amz-crc32: " + crc.getValue() + "\r\n"
                + "Connection: close\r\n"
                + "Date: ")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    this.tail = new byte[end.length + json.length];
    System.arraycopy(end, 0, tail, 0, end.length);
    System.arraycopy(json, 0, tail, end.length, json.length);
  }

  /**
   * Whether {@code connection}, just accepted, is served; if not, its refusal is written and it
   * closes after it. A served connection counts until it closes.
   */
  boolean admit(Channel connection) {
    if (open.incrementAndGet() > max) {
      open.decrementAndGet();
      refuse(connection);
      return false;
    }
    connection.closeFuture().addListener(released);
    return true;
  }

  private void refuse(Channel connection) {
    refusals.occurred(null);
    connection.config().setAutoRead(false); // its request is not read
    // Every answer carries a Date and a request id, as DynamoDbHandler.setHeaders sets them.
    byte[] id = ("\r\nx-amzn-RequestId: " + RequestIds.next()).getBytes(StandardCharsets.US_ASCII);
    AsciiString date = HttpDate.now();
    ByteBuf answer =
        connection.alloc().buffer(head.length + date.length() + id.length + tail.length);
    answer.writeBytes(head).writeBytes(date.array(), date.arrayOffset(), date.length())
        .writeBytes(id).writeBytes(tail);
    ChannelFuture written = connection.writeAndFlush(answer);
    written.addListener(ChannelFutureListener.CLOSE);
  }

  int max() {
    return max;
  }

  /** The connections served now. */
  int open() {
    return open.get();
  }

  /** The connections refused so far. */
  long refused() {
    return refusals.count();
  }
}
