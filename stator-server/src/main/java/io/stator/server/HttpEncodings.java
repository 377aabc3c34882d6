package io.stator.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * Compressed bodies, as the AWS SDKs use them: a request body sent with {@code Content-Encoding:
 * gzip} or {@code deflate} (the SDKs' request compression) is read decompressed, and an answer is
 * compressed when the client accepts {@code gzip} or {@code deflate} and it is large enough to
 * gain from it. The {@code x-amz-crc32} of a compressed answer is of the bytes sent, as DynamoDB
 * computes it and the SDKs check it.
 *
 * <p>A request decompresses to at most DynamoDB's 16 MB, so a small body cannot grow without
 * bound in memory; a body that is not what its encoding says, or an encoding Stator does not
 * read, is a SerializationException, like any body that cannot be read.
 */
final class HttpEncodings {
  /** Answers shorter than this go uncompressed: the header and a round of deflate cost more. */
  static final int MIN_COMPRESSED_BYTES = 1024;
  private static final AsciiString GZIP = AsciiString.cached("gzip");
  private static final AsciiString DEFLATE = AsciiString.cached("deflate");

  private HttpEncodings() {}

  /**
   * The request's body as sent before any content coding; {@code request.content()} itself (not
   * a copy) when it has none. A new buffer is the caller's to release.
   */
  static ByteBuf decoded(FullHttpRequest request, ByteBufAllocator alloc, int maxBytes) {
    String coding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
    if (coding == null) {
      return request.content();
    }
    String name = coding.trim().toLowerCase(Locale.ROOT);
    if (name.isEmpty() || name.equals("identity")) {
      return request.content();
    }
    boolean gzip = name.equals("gzip") || name.equals("x-gzip");
    if (!gzip && !name.equals("deflate")) {
      throw DynamoDbException.serialization("Unsupported Content-Encoding: " + coding.trim());
    }
    ByteBuf out = alloc.buffer();
    try (InputStream in = new ByteBufInputStream(request.content().duplicate());
        InputStream inflated = gzip ? new GZIPInputStream(in) : new InflaterInputStream(in)) {
      byte[] chunk = new byte[8192];
      int n;
      while ((n = inflated.read(chunk)) > 0) {
        if (out.readableBytes() + n > maxBytes) {
          // As a body sent that large: the limit is on the request, however it travels.
          throw new DynamoDbException(
              ErrorType.RequestEntityTooLarge, RequestSizeLimit.message(maxBytes));
        }
        out.writeBytes(chunk, 0, n);
      }
      return out;
    } catch (ZipException | java.io.EOFException corrupt) {
      out.release();
      throw DynamoDbException.serialization(
          "Request body is not valid " + (gzip ? "gzip" : "deflate") + " data");
    } catch (IOException e) {
      out.release();
      throw DynamoDbException.serialization("Request body cannot be decompressed");
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /**
   * The coding to answer a request in, from its {@code Accept-Encoding}: gzip or deflate when
   * accepted (gzip first), else null. A coding with {@code q=0} is refused, as HTTP says.
   */
  private static AsciiString accepted(HttpHeaders headers) {
    String accept = headers.get(HttpHeaderNames.ACCEPT_ENCODING);
    if (accept == null) {
      return null;
    }
    boolean deflate = false;
    for (String part : accept.split(",")) {
      String[] fields = part.split(";");
      String name = fields[0].trim().toLowerCase(Locale.ROOT);
      boolean refused = false;
      for (int i = 1; i < fields.length; i++) {
        String p = fields[i].trim().replace(" ", "");
        refused |= p.equals("q=0") || p.equals("q=0.0") || p.equals("q=0.00")
            || p.equals("q=0.000");
      }
      if (refused) {
        continue;
      }
      if (name.equals("gzip") || name.equals("x-gzip")) {
        return GZIP;
      }
      deflate |= name.equals("deflate");
    }
    return deflate ? DEFLATE : null;
  }

  /**
   * {@code body} compressed when it is worth it and the request's {@code headers} accept a
   * coding, with {@code Content-Encoding} set on the {@code response} headers; else {@code body}
   * itself. Releases {@code body} when it replaces it. A small answer, nearly every one, is
   * returned before the request's headers are read.
   */
  static ByteBuf encode(
      ByteBuf body, HttpHeaders headers, HttpHeaders response, ByteBufAllocator alloc) {
    if (body.readableBytes() < MIN_COMPRESSED_BYTES) {
      return body;
    }
    AsciiString coding = accepted(headers);
    if (coding == null) {
      return body;
    }
    ByteBuf out = alloc.buffer(body.readableBytes() / 4 + 64);
    try (OutputStream sink = new ByteBufOutputStream(out);
        OutputStream compressed =
            coding == GZIP ? new GZIPOutputStream(sink) : new DeflaterOutputStream(sink)) {
      body.getBytes(body.readerIndex(), compressed, body.readableBytes());
    } catch (IOException e) {
      out.release();
      return body; // cannot happen with buffers; answer uncompressed
    }
    body.release();
    response.set(HttpHeaderNames.CONTENT_ENCODING, coding);
    return out;
  }
}
