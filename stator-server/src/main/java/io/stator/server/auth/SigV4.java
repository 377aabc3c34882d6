package io.stator.server.auth;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies AWS Signature Version 4 as AWS does for DynamoDB: the canonical request (method, path,
 * sorted and encoded query, the signed headers, the payload's hash or {@code UNSIGNED-PAYLOAD}),
 * the credential scope ({@code date/region/dynamodb/aws4_request}, any region), the time within
 * 15 minutes of this server's clock, the session token of a temporary key, and the signature
 * compared in constant time; in the Authorization header or, presigned, in the query string.
 * Each refusal is DynamoDB's error and message.
 */
public final class SigV4 {
  static final String ALGORITHM = "AWS4-HMAC-SHA256";
  static final Duration SKEW = Duration.ofMinutes(15);
  private static final String SERVICE = "dynamodb";
  private static final String UNSIGNED = "UNSIGNED-PAYLOAD";
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final HexFormat HEX = HexFormat.of();

  private volatile Credentials credentials;
  private final Clock clock;

  public SigV4(Credentials credentials, Clock clock) {
    this.credentials = credentials;
    this.clock = clock;
  }

  /** From now on, the keys of {@code credentials} (a reloaded file) instead of the others. */
  public void use(Credentials credentials) {
    this.credentials = credentials;
  }

  /** One request as received: its method, its target as sent, its headers, its body's bytes. */
  public record Request(
      String method, String uri, Function<String, List<String>> headers, ByteBuffer body) {
    String header(String name) {
      List<String> values = headers.apply(name);
      return values == null || values.isEmpty() ? null : String.join(",", values);
    }
  }

  /**
   * Returns the key that signed {@code request}, or throws DynamoDB's error: no signature at all
   * ({@code MissingAuthenticationTokenException}), a signature not made of its parts ({@code
   * IncompleteSignatureException}), an unknown key or a wrong session token ({@code
   * UnrecognizedClientException}), a wrong signature or one out of its time ({@code
   * InvalidSignatureException}).
   */
  public Credential verify(Request request) {
    int q = request.uri().indexOf('?');
    String path = q < 0 ? request.uri() : request.uri().substring(0, q);
    Map<String, List<String>> query = QueryString.parse(q < 0 ? "" : request.uri().substring(q + 1));
    String authorization = request.header("authorization");
    Signed signed;
    boolean presigned;
    if (authorization != null) {
      signed = Signed.fromHeader(authorization, request.header("x-amz-date"),
          request.header("date"));
      presigned = false;
    } else if (query.containsKey("X-Amz-Algorithm")) {
      signed = Signed.fromQuery(query);
      presigned = true;
    } else {
      throw new DynamoDbException(ErrorType.MissingAuthenticationTokenException,
          "Request is missing Authentication Token");
    }
    Credential key = credentials.find(signed.accessKeyId());
    if (key == null) {
      throw unrecognized();
    }
    String token = presigned ? first(query, "X-Amz-Security-Token")
        : request.header("x-amz-security-token");
    if (key.sessionToken() != null ? !key.sessionToken().equals(token) : token != null) {
      throw unrecognized();
    }
    checkTime(signed, presigned ? first(query, "X-Amz-Expires") : null);

    String payloadHash = request.header("x-amz-content-sha256");
    if (payloadHash == null) {
      payloadHash = presigned ? UNSIGNED : HEX.formatHex(sha256(request.body().duplicate()));
    } else if (!payloadHash.equals(UNSIGNED)
        && !payloadHash.equals(HEX.formatHex(sha256(request.body().duplicate())))) {
      throw invalidSignature();
    }
    String expectedSignature = signature(key, request.method(), path, query, presigned,
        canonicalHeaders(request, signed.signedHeaders()), signed, payloadHash);
    byte[] expected = expectedSignature.getBytes(StandardCharsets.US_ASCII);
    byte[] given = signed.signature().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, given)) {
      throw invalidSignature();
    }
    return key;
  }

  /** The hex signature of a request's canonical form with {@code key}, as AWS computes it. */
  private static String signature(Credential key, String method, String path,
      Map<String, List<String>> query, boolean presigned, String canonicalHeaders,
      Signed signed, String payloadHash) {
    String canonical = method + "\n"
        + canonicalPath(path) + "\n"
        + canonicalQuery(query, presigned) + "\n"
        + canonicalHeaders + "\n"
        + String.join(";", signed.signedHeaders()) + "\n"
        + payloadHash;
    String scope = signed.date() + "/" + signed.region() + "/" + SERVICE + "/aws4_request";
    String toSign = ALGORITHM + "\n" + signed.amzDate() + "\n" + scope + "\n"
        + HEX.formatHex(sha256(ByteBuffer.wrap(canonical.getBytes(StandardCharsets.UTF_8))));
    byte[] signingKey = hmac(hmac(hmac(hmac(
        ("AWS4" + key.secretAccessKey()).getBytes(StandardCharsets.UTF_8), signed.date()),
        signed.region()), SERVICE), "aws4_request");
    return HEX.formatHex(hmac(signingKey, toSign));
  }

  /**
   * The headers that sign a GET of {@code uri} on {@code host} (as the client will send Host)
   * with {@code key} at {@code now}: X-Amz-Date, X-Amz-Content-Sha256, the session token if any,
   * and Authorization. For Stator's own clients (the hot-keys report) of a server that checks.
   */
  public static Map<String, String> signGet(Credential key, String host, String uri, Instant now) {
    return sign(key, "GET", host, uri, new byte[0], now);
  }

  /**
   * The headers that sign a request of {@code method} to {@code uri} on {@code host} with the
   * body {@code body}, as {@link #signGet} does a GET: for Stator's own clients of the API (the
   * export and import commands).
   */
  public static Map<String, String> sign(Credential key, String method, String host, String uri,
      byte[] body, Instant now) {
    int q = uri.indexOf('?');
    String path = q < 0 ? uri : uri.substring(0, q);
    Map<String, List<String>> query = QueryString.parse(q < 0 ? "" : uri.substring(q + 1));
    String amzDate = AMZ_DATE.format(now);
    String payloadHash = HEX.formatHex(sha256(ByteBuffer.wrap(body)));
    TreeMap<String, String> headers = new TreeMap<>();
    headers.put("host", host);
    headers.put("x-amz-content-sha256", payloadHash);
    headers.put("x-amz-date", amzDate);
    if (key.sessionToken() != null) {
      headers.put("x-amz-security-token", key.sessionToken());
    }
    StringBuilder canonicalHeaders = new StringBuilder();
    headers.forEach((name, value) -> canonicalHeaders.append(name).append(':').append(value)
        .append('\n'));
    Signed signed = new Signed(key.accessKeyId(), amzDate.substring(0, 8), "us-east-1",
        List.copyOf(headers.keySet()), amzDate, "");
    String signature = signature(key, method, path, query, false, canonicalHeaders.toString(),
        signed, payloadHash);
    Map<String, String> out = new java.util.LinkedHashMap<>(headers);
    out.remove("host");
    out.put("authorization", ALGORITHM + " Credential=" + key.accessKeyId() + "/"
        + signed.date() + "/us-east-1/" + SERVICE + "/aws4_request, SignedHeaders="
        + String.join(";", signed.signedHeaders()) + ", Signature=" + signature);
    return out;
  }

  private void checkTime(Signed signed, String expires) {
    Instant signedAt;
    try {
      signedAt = Instant.from(AMZ_DATE.parse(signed.amzDate()));
    } catch (DateTimeParseException e) {
      throw incomplete("Date must be in ISO-8601 'basic format'. Got '" + signed.amzDate()
          + "'. See http://en.wikipedia.org/wiki/ISO_8601");
    }
    if (!signed.amzDate().startsWith(signed.date())) {
      throw invalidSignature();
    }
    Instant now = clock.instant();
    if (expires != null) {
      long seconds;
      try {
        seconds = Long.parseLong(expires);
      } catch (NumberFormatException e) {
        throw incomplete("X-Amz-Expires must be a number of seconds");
      }
      if (now.isAfter(signedAt.plusSeconds(seconds))) {
        throw new DynamoDbException(ErrorType.InvalidSignatureException,
            "Signature expired: " + signed.amzDate() + " is now earlier than "
                + AMZ_DATE.format(now.minusSeconds(seconds)) + " (" + AMZ_DATE.format(now)
                + " - " + seconds + " sec.)");
      }
    } else if (signedAt.isBefore(now.minus(SKEW))) {
      throw new DynamoDbException(ErrorType.InvalidSignatureException,
          "Signature expired: " + signed.amzDate() + " is now earlier than "
              + AMZ_DATE.format(now.minus(SKEW)) + " (" + AMZ_DATE.format(now) + " - 15 min.)");
    }
    if (signedAt.isAfter(now.plus(SKEW))) {
      throw new DynamoDbException(ErrorType.InvalidSignatureException,
          "Signature not yet current: " + signed.amzDate() + " is still later than "
              + AMZ_DATE.format(now.plus(SKEW)) + " (" + AMZ_DATE.format(now) + " + 15 min.)");
    }
  }

  /** The path with each segment encoded again, as SigV4 does for every service but S3. */
  static String canonicalPath(String path) {
    if (path.isEmpty()) {
      return "/";
    }
    StringBuilder out = new StringBuilder();
    String[] segments = path.split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      if (i > 0) {
        out.append('/');
      }
      out.append(QueryString.encode(segments[i]));
    }
    return out.toString();
  }

  private static String canonicalQuery(Map<String, List<String>> query, boolean presigned) {
    TreeMap<String, List<String>> sorted = new TreeMap<>();
    query.forEach((name, values) -> {
      if (!(presigned && name.equals("X-Amz-Signature"))) {
        List<String> encoded = new ArrayList<>();
        values.forEach(v -> encoded.add(QueryString.encode(v)));
        encoded.sort(null);
        sorted.put(QueryString.encode(name), encoded);
      }
    });
    List<String> pairs = new ArrayList<>();
    sorted.forEach((name, values) -> values.forEach(v -> pairs.add(name + "=" + v)));
    return String.join("&", pairs);
  }

  private static String canonicalHeaders(Request request, List<String> signedHeaders) {
    StringBuilder out = new StringBuilder();
    for (String name : signedHeaders) {
      List<String> values = request.headers().apply(name);
      if (values == null || values.isEmpty()) {
        throw invalidSignature();
      }
      List<String> trimmed = new ArrayList<>();
      values.forEach(v -> trimmed.add(v.strip().replaceAll(" +", " ")));
      out.append(name).append(':').append(String.join(",", trimmed)).append('\n');
    }
    return out.toString();
  }

  private static String first(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static byte[] sha256(ByteBuffer bytes) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(bytes);
      return digest.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static DynamoDbException unrecognized() {
    return new DynamoDbException(ErrorType.UnrecognizedClientException,
        "The security token included in the request is invalid.");
  }

  static DynamoDbException invalidSignature() {
    return new DynamoDbException(ErrorType.InvalidSignatureException,
        "The request signature we calculated does not match the signature you provided. Check"
            + " your AWS Secret Access Key and signing method. Consult the service documentation"
            + " for details.");
  }

  static DynamoDbException incomplete(String message) {
    return new DynamoDbException(ErrorType.IncompleteSignatureException, message);
  }
}
