package io.stator.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.FastThreadLocal;
import io.stator.api.Database;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.engine.EngineOptions;
import io.stator.server.access.AccessRequest;
import io.stator.server.access.Authorization;
import io.stator.server.access.Principal;
import io.stator.server.access.RequestedAccess;
import io.stator.server.access.StoredResourcePolicies;
import io.stator.server.auth.Credential;
import io.stator.server.auth.SigV4;
import io.stator.server.wire.RequestCheck;
import io.stator.server.wire.WireProtocol;
import io.stator.storage.GroupCommit;
import io.stator.ttl.ExpiredItemSweep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Answers one aggregated HTTP request the way DynamoDB's front end does.
 *
 * <p>Stator's own {@code GET /stator/...} paths (the connections' figures, {@code
 * /stator/connections}; the Prometheus metrics, {@code /stator/metrics}, see {@link
 * RequestMetrics}; the capacity model's partition report, see {@link PartitionsEndpoint})
 * are answered first; DynamoDB's API is only {@code POST /}.
 *
 * <p>The checks run in DynamoDB's order: a {@code GET} is a health check (200 {@code healthy: ...}
 * as DynamoDB answers it, or 503 {@code unhealthy: <why>} while the server cannot serve, see
 * {@link ServerHealth}); anything but a
 * {@code POST} with a JSON body is a 404 {@code <UnknownOperationException/>}; then a body that is
 * no well-formed JSON is a SerializationException, an unknown {@code X-Amz-Target} an
 * UnknownOperationException, a request without SigV4 credentials (header or query string) a
 * MissingAuthenticationTokenException, an empty body a SerializationException; only then is the
 * body read as the operation's request. Any credentials are accepted for now.
 *
 * <p>Before DynamoDB's checks, {@code POST /stator/ttl/sweep} (a path DynamoDB's clients never
 * use) forces a Time to Live sweep.
 *
 * <p>Every response carries {@code x-amzn-RequestId}, {@code x-amz-crc32} (the CRC32 of the
 * body as sent, which the SDKs verify) and {@code Date}; a compressed request body is read
 * decompressed and an answer compressed when the client accepts it ({@link HttpEncodings}); a
 * request from a web page gets the CORS headers, and its preflight an empty 200 ({@link Cors}).
 */
@ChannelHandler.Sharable
final class DynamoDbHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  static final String AMZ_JSON = "application/x-amz-json-1.0";
  private static final String JSON = "application/json";
  static final String TTL_SWEEP_PATH = "/stator/ttl/sweep";
  static final String CONNECTIONS_PATH = "/stator/connections";
  private static final AsciiString REQUEST_ID = AsciiString.cached("x-amzn-RequestId");
  private static final AsciiString CRC32_HEADER = AsciiString.cached("x-amz-crc32");
  private static final ServerLog CLOSED_ON_ERROR =
      new ServerLog("stator: a connection closed on an unexpected error");
  private static final HttpHeadersFactory UNVALIDATED =
      DefaultHttpHeadersFactory.headersFactory().withValidation(false);

  private final Database database;
  /** Each answering thread's answers, held until the end of its loop's turn. */
  private final FastThreadLocal<HeldAnswers> held =
      new FastThreadLocal<>() {
        @Override
        protected HeldAnswers initialValue() {
          return new HeldAnswers(groupCommit);
        }
      };
  private final byte[] healthy;

  private final GroupCommit groupCommit;
  private final ServerHealth health;
  private final RequestMetrics metrics;
  /** Verifies each request's signature; null accepts any well-formed one (local use). */
  private final SigV4 signatures;
  /** Whether GET /stator/console serves the console (off with --no-console). */
  private volatile boolean consoleServed = true;
  /** The permissions each request needs, for a key whose principal has a policy. */
  private final RequestedAccess requestedAccess;
  private final StoredResourcePolicies resourcePolicies;

  /**
   * A handler that calls {@code database}, answering on threads that defer the durability of
   * their commits to {@code groupCommit} (the database's own, or one that does nothing), and
   * answering the health check from {@code health}.
   */
  DynamoDbHandler(
      Database database, GroupCommit groupCommit, String region, ServerHealth health,
      RequestMetrics metrics, SigV4 signatures) {
    this.database = database;
    this.signatures = signatures;
    this.requestedAccess = new RequestedAccess(region, EngineOptions.DEFAULT_ACCOUNT_ID,
        RequestedAccess.KeySchemas.of(database));
    this.resourcePolicies = new StoredResourcePolicies(database);
    this.groupCommit = groupCommit;
    this.health = health;
    this.metrics = metrics;
    // DynamoDB's answer to GET /, trailing space included.
    this.healthy =
        ("healthy: dynamodb." + region + ".amazonaws.com ").getBytes(StandardCharsets.UTF_8);
  }

  void serveConsole(boolean served) {
    consoleServed = served;
  }

  /**
   * Runs on the thread that will answer the connection, before its first request: the thread's
   * held answers, made at its first connection, defer the durability of its commits.
   */
  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    held.get();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    if (!request.decoderResult().isSuccess()) {
      // Garbled HTTP: nothing after it on this connection can be trusted.
      respond(ctx, request, HttpResponseStatus.BAD_REQUEST, "text/plain", bytes(ctx, "Bad Request"),
          false);
      return;
    }
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    if (isOwnEndpoint(request) && !ownEndpointAllowed(ctx, request, keepAlive)) {
      return;
    }
    if (request.method().equals(HttpMethod.GET) && hasPath(request.uri(), CONNECTIONS_PATH)) {
      byte[] json = health.connectionsJson();
      ByteBuf body = ctx.alloc().buffer(json.length).writeBytes(json);
      respond(ctx, request, HttpResponseStatus.OK, JSON, body, keepAlive);
      return;
    }
    if (request.method().equals(HttpMethod.GET) && hasPath(request.uri(), RequestMetrics.PATH)) {
      byte[] text = metrics.scrape();
      ByteBuf body = ctx.alloc().buffer(text.length).writeBytes(text);
      respond(ctx, request, HttpResponseStatus.OK, RequestMetrics.CONTENT_TYPE, body, keepAlive);
      return;
    }
    if (request.method().equals(HttpMethod.GET) && consoleServed
        && request.uri().startsWith(Console.PATH)) {
      Console.File file = Console.file(new QueryStringDecoder(request.uri()).rawPath());
      if (file != null) {
        ByteBuf body = ctx.alloc().buffer(file.body().length).writeBytes(file.body());
        respond(ctx, request, HttpResponseStatus.OK, file.contentType(), body, keepAlive);
        return;
      }
    }
    if (request.method().equals(HttpMethod.GET) && PartitionsEndpoint.handles(request.uri())) {
      PartitionsEndpoint.Answer answer = PartitionsEndpoint.answer(database, request.uri());
      ByteBuf body = ctx.alloc().buffer(answer.body().length).writeBytes(answer.body());
      respond(ctx, request, HttpResponseStatus.valueOf(answer.status()), answer.contentType(),
          body, keepAlive);
      return;
    }
    if (request.method().equals(HttpMethod.GET) && !hasPath(request.uri(), "/")) {
      // Only / is the health check: a scraper or a browser must not read "healthy" elsewhere
      respond(ctx, request, HttpResponseStatus.NOT_FOUND, "text/plain", bytes(ctx, "Not Found"),
          keepAlive);
      return;
    }
    if (request.method().equals(HttpMethod.GET)) {
      String problem = health.problem();
      if (problem != null) {
        respond(ctx, request, HttpResponseStatus.SERVICE_UNAVAILABLE, "text/plain",
            bytes(ctx, "unhealthy: " + problem), keepAlive);
        return;
      }
      ByteBuf body = ctx.alloc().buffer(healthy.length).writeBytes(healthy);
      respond(ctx, request, HttpResponseStatus.OK, "text/plain", body, keepAlive);
      return;
    }
    if (request.method().equals(HttpMethod.POST)
        && hasPath(request.uri(), TTL_SWEEP_PATH)) {
      sweepExpiredItems(ctx, request, keepAlive);
      return;
    }
    if (request.method().equals(HttpMethod.OPTIONS) && Cors.isPreflight(request.headers())) {
      respond(ctx, request, HttpResponseStatus.OK, "text/plain", ctx.alloc().buffer(0), keepAlive);
      return;
    }
    String contentType = mediaType(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
    ByteBuf content = request.content();
    if (!request.method().equals(HttpMethod.POST)
        || (content.isReadable() && !AMZ_JSON.equals(contentType) && !JSON.equals(contentType))) {
      ByteBuf body = bytes(ctx, "<UnknownOperationException/>\n");
      respond(ctx, request, HttpResponseStatus.NOT_FOUND, "text/plain", body, keepAlive);
      return;
    }
    // DynamoDB answers in the JSON flavour it was asked in.
    String responseType = JSON.equals(contentType) ? JSON : AMZ_JSON;
    ByteBuf body = ctx.alloc().buffer();
    HttpResponseStatus status;
    ByteBuf decoded = null;
    long started = System.nanoTime();
    String operation = WireProtocol.operation(target(request));
    ErrorType failure = null;
    try {
      decoded = HttpEncodings.decoded(request, ctx.alloc(), StatorServer.MAX_REQUEST_BYTES);
      dispatch(request, operation, decoded, body);
      status = HttpResponseStatus.OK;
    } catch (DynamoDbException e) {
      failure = e.type();
      status = error(body, e.type(), e.getMessage(), e);
    } catch (Exception | StackOverflowError e) {
      System.err.println("Internal error answering " + target(request) + ":");
      e.printStackTrace();
      failure = ErrorType.InternalServerError;
      status = error(body, ErrorType.InternalServerError, "Internal server error", null);
    } finally {
      if (decoded != null && decoded != content) {
        decoded.release();
      }
    }
    metrics.record(operation, failure, System.nanoTime() - started);
    respond(ctx, request, status, responseType, body, keepAlive);
  }

  /**
   * With --auth sigv4, checks the request's signature over the bytes as sent (a compressed
   * body's, before decoding); DynamoDB's error when it does not hold.
   */
  private Credential verifySignature(FullHttpRequest request) {
    if (signatures == null) {
      return null;
    }
    return signatures.verify(new SigV4.Request(request.method().name(), request.uri(),
        name -> request.headers().getAll(name), request.content().nioBuffer()));
  }

  /**
   * What checks a request of the key that signed it before it runs: a resource-based policy's
   * document, and the principal's policies (see {@link Authorization}) unless the key may do
   * everything.
   */
  private RequestCheck accessOf(Credential key) {
    if (key == null || key.principal() == null) {
      return (operation, request) -> StoredResourcePolicies.checkDocument(request);
    }
    Principal principal = key.principal();
    return (operation, request) -> {
      StoredResourcePolicies.checkDocument(request);
      Authorization.check(principal, requestedAccess.of(operation, request), resourcePolicies);
    };
  }

  /** A GET of one of Stator's own paths, or the TTL sweep's POST. */
  private static boolean isOwnEndpoint(FullHttpRequest request) {
    return (request.method().equals(HttpMethod.GET)
            && request.uri().startsWith(PartitionsEndpoint.PREFIX))
        || (request.method().equals(HttpMethod.POST) && hasPath(request.uri(), TTL_SWEEP_PATH));
  }

  /**
   * Whether one of Stator's own endpoints may answer (see {@link OwnEndpoints}); with {@code
   * --auth sigv4}, the sweep and the partition report also need a valid signature. When not,
   * answers the refusal: 403, or DynamoDB's error for the signature.
   */
  private boolean ownEndpointAllowed(
      ChannelHandlerContext ctx, FullHttpRequest request, boolean keepAlive) {
    boolean changesOrShowsKeys = request.method().equals(HttpMethod.POST)
        || request.uri().startsWith(PartitionsEndpoint.TABLES);
    String refusal = OwnEndpoints.refusal(request.headers(), changesOrShowsKeys);
    if (refusal != null) {
      respond(ctx, request, HttpResponseStatus.FORBIDDEN, "text/plain", bytes(ctx, refusal),
          keepAlive);
      return false;
    }
    if (changesOrShowsKeys) {
      try {
        Credential key = verifySignature(request);
        if (key != null && key.principal() != null) {
          // Stator's own actions, on no resource: a policy allows them by name
          String action = request.method().equals(HttpMethod.POST)
              ? "stator:SweepExpiredItems" : "stator:DescribePartitions";
          Authorization.check(key.principal(), List.of(new AccessRequest(action, "*")));
        }
      } catch (DynamoDbException e) {
        ByteBuf body = ctx.alloc().buffer();
        respond(ctx, request, error(body, e.type(), e.getMessage(), e), AMZ_JSON, body,
            keepAlive);
        return false;
      }
    }
    return true;
  }

  /**
   * Stator's own endpoint: {@code POST /stator/ttl/sweep} deletes every expired item now (see
   * {@link ExpiredItemSweep}) and answers {@code {"DeletedItems": n}}. DynamoDB's API is
   * only ever posted to {@code /}, so this path cannot be taken for one of its requests; it
   * needs no credentials, like the health check.
   */
  private void sweepExpiredItems(
      ChannelHandlerContext ctx, FullHttpRequest request, boolean keepAlive) {
    ByteBuf body;
    HttpResponseStatus status;
    if (!(database instanceof ExpiredItemSweep sweep)) {
      respond(ctx, request, HttpResponseStatus.NOT_FOUND, "text/plain", bytes(ctx, "Not Found"),
          keepAlive);
      return;
    }
    try {
      long deleted = sweep.sweepExpiredItems();
      body = bytes(ctx, "{\"DeletedItems\":" + deleted + "}");
      status = HttpResponseStatus.OK;
    } catch (RuntimeException e) {
      System.err.println("Internal error sweeping expired items:");
      e.printStackTrace();
      body = ctx.alloc().buffer();
      status = error(body, ErrorType.InternalServerError, "Internal server error", null);
    }
    respond(ctx, request, status, JSON, body, keepAlive);
  }

  private void dispatch(FullHttpRequest request, String operation, ByteBuf content, ByteBuf out)
      throws IOException {
    boolean authenticated = authenticated(request);
    String unserved = operation == null ? DynamoDbOperations.unservedName(target(request)) : null;
    if ((operation == null && unserved == null) || !authenticated) {
      WireProtocol.checkWellFormed(new ByteBufInputStream(content.duplicate()));
      if (operation == null && unserved == null) {
        // A name DynamoDB does not know: its answer names no operation and has no message.
        throw new DynamoDbException(ErrorType.UnknownOperationException, null);
      }
      throw new DynamoDbException(
          ErrorType.MissingAuthenticationTokenException, "Request is missing Authentication Token");
    }
    RequestCheck access = accessOf(verifySignature(request));
    if (unserved != null) {
      // One of DynamoDB's operations that only an AWS account has (global tables, Kinesis):
      // what Stator offers instead, once the request is known to be well formed and signed.
      WireProtocol.checkWellFormed(new ByteBufInputStream(content.duplicate()));
      throw DynamoDbException.validation(DynamoDbOperations.instead(unserved));
    }
    if (!content.isReadable()) {
      throw DynamoDbException.serialization(null);
    }
    try (ByteBufOutputStream stream = new ByteBufOutputStream(out)) {
      WireProtocol.invoke(
          database, operation, request.headers().get(HttpHeaderNames.HOST), access,
          new ByteBufInputStream(content.duplicate()), stream);
    }
  }

  /**
   * Whether {@code uri}'s path is {@code path}, compared as sent (no decoding, which a malformed
   * escape would fail) and without building a decoder for every DynamoDB call.
   */
  private static boolean hasPath(String uri, String path) {
    if (!uri.startsWith(path)) {
      return false;
    }
    return uri.length() == path.length()
        || uri.charAt(path.length()) == '?'
        || uri.charAt(path.length()) == '#';
  }

  private static String target(FullHttpRequest request) {
    return request.headers().get("X-Amz-Target");
  }

  /**
   * SigV4 in the Authorization header ("AWS4-HMAC-SHA256 Credential=...") or in the query string
   * (X-Amz-Algorithm=...). Signatures are not verified yet.
   */
  private static boolean authenticated(FullHttpRequest request) {
    String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
    if (authorization != null) {
      return authorization.trim().startsWith("AWS4-");
    }
    if (!request.uri().contains("X-Amz-Algorithm")) {
      return false;
    }
    try {
      return new QueryStringDecoder(request.uri()).parameters().containsKey("X-Amz-Algorithm");
    } catch (IllegalArgumentException malformedEscape) {
      return false; // no readable signature: the client's mistake, not the server's
    }
  }

  private static HttpResponseStatus error(
      ByteBuf body, ErrorType type, String message, DynamoDbException e) {
    body.clear();
    try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
      WireProtocol.writeEngineError(type, message, e, out);
    } catch (IOException io) {
      throw new java.io.UncheckedIOException(io);
    }
    return HttpResponseStatus.valueOf(type.httpStatus());
  }

  private static String mediaType(String contentType) {
    if (contentType == null) {
      return "";
    }
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
  }

  private static ByteBuf bytes(ChannelHandlerContext ctx, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return ctx.alloc().buffer(b.length).writeBytes(b);
  }

  /**
   * Writes the answer, which the connection gets at the end of the loop's turn ({@link
   * HeldAnswers}), once the commits behind it are durable ({@link DurableFlush}); a connection not
   * kept alive then closes.
   */
  private void respond(
      ChannelHandlerContext ctx,
      FullHttpRequest request,
      HttpResponseStatus status,
      String contentType,
      ByteBuf body,
      boolean keepAlive) {
    HttpHeaders headers = UNVALIDATED.newHeaders();
    ByteBuf sent = HttpEncodings.encode(body, request.headers(), headers, ctx.alloc());
    FullHttpResponse response = response(status, sent, headers);
    setHeaders(response, contentType, sent);
    Cors.addTo(request.headers(), response.headers());
    response
        .headers()
        .set(
            HttpHeaderNames.CONNECTION,
            keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
    ChannelFuture written = ctx.write(response);
    if (!keepAlive) {
      written.addListener(ChannelFutureListener.CLOSE);
    }
    held.get().hold(ctx);
  }

  /**
   * A response whose headers Netty does not validate: every header this server sets has a
   * constant name and a value that is a constant, a number or a request id it made itself, never
   * text from a request, so the checks (a scan of every character of every header) would only
   * cost time.
   */
  static FullHttpResponse response(HttpResponseStatus status, ByteBuf body) {
    return response(status, body, UNVALIDATED.newHeaders());
  }

  /** The same, with headers made beforehand by {@code UNVALIDATED}. */
  private static FullHttpResponse response(
      HttpResponseStatus status, ByteBuf body, HttpHeaders headers) {
    return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body, headers,
        DefaultHttpHeadersFactory.trailersFactory().newHeaders());
  }

  static void setHeaders(FullHttpResponse response, String contentType, ByteBuf body) {
    CRC32 crc = new CRC32();
    crc.update(body.nioBuffer());
    response
        .headers()
        .set(HttpHeaderNames.CONTENT_TYPE, contentType)
        .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
        .set(REQUEST_ID, RequestIds.next())
        .set(CRC32_HEADER, Long.toString(crc.getValue()))
        .set(HttpHeaderNames.DATE, HttpDate.now());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset connection or a failed write: the client is gone; nothing to answer. Anything
    // else closes a connection that may owe answers, which its client sees as a connection
    // closed without a word: said on standard error, so that it can be traced.
    if (!(cause instanceof IOException)) {
      CLOSED_ON_ERROR.occurred(cause);
    }
    ctx.close();
  }
}
