package io.stator.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.stator.api.ErrorType;
import io.stator.server.wire.WireProtocol;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Aggregates a request into one message, refusing bodies over DynamoDB's 16 MB limit with 413
 * RequestEntityTooLarge. The connection is closed after the refusal: the rest of the body may
 * still be on its way and cannot be told apart from a next request.
 */
final class RequestSizeLimit extends HttpObjectAggregator {
  RequestSizeLimit(int maxBytes) {
    super(maxBytes);
  }

  /** DynamoDB's words for a request over {@code maxBytes}. */
  static String message(int maxBytes) {
    return "Request must be smaller than " + maxBytes + " bytes for the operation";
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    ByteBuf body = ctx.alloc().buffer();
    try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
      WireProtocol.writeError(
          ErrorType.RequestEntityTooLarge,
          message(maxContentLength()),
          null,
          out);
    } catch (IOException e) {
      body.release();
      throw new UncheckedIOException(e);
    }
    FullHttpResponse response =
        DynamoDbHandler.response(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, body);
    DynamoDbHandler.setHeaders(response, DynamoDbHandler.AMZ_JSON, body);
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
  }
}
