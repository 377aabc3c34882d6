package io.stator.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Signatures come from untrusted clients: whatever the Authorization header, the query string
 * and the date headers, verification answers one of DynamoDB's four authentication errors and
 * never anything else (no parsing bug may become a 500). A longer run:
 * {@code -Djqwik.tries.default=1000000 -Dtest=SigV4FuzzTest}.
 */
class SigV4FuzzTest {
  private static final Set<ErrorType> AUTH_ERRORS = EnumSet.of(
      ErrorType.MissingAuthenticationTokenException, ErrorType.IncompleteSignatureException,
      ErrorType.UnrecognizedClientException, ErrorType.InvalidSignatureException);
  private static final List<String> FRAGMENTS = List.of(
      "AWS4-HMAC-SHA256", "AWS4-ECDSA-P256-SHA256", " ", ",", ", ", "=", "/", ";",
      "Credential=", "SignedHeaders=", "Signature=", "AKIDSTATOR", "ASIATEMP", "20261205",
      "us-east-1", "dynamodb", "s3", "aws4_request", "aws4_reques", "host", "x-amz-date",
      "content-type", "0123456789abcdef", "%", "%zz", "%41", "\u00e9", "\uD83D", "\u0000", "",
      "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders",
      "X-Amz-Date", "X-Amz-Expires", "&", "?", "+", "-1", "99999999999999999999");
  private static final SigV4 SIGNATURES = new SigV4(
      Credentials.of(List.of(new Credential("AKIDSTATOR", "secret", null),
          new Credential("ASIATEMP", "secret", "token"))),
      Clock.fixed(Instant.parse("2026-12-05T12:00:00Z"), ZoneOffset.UTC));

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.of(FRAGMENTS).list().ofMaxSize(24).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<String> dates() {
    return Arbitraries.oneOf(
        Arbitraries.of("20261205T120000Z", "20261205T115000Z", "20261205T140000Z",
            "20261205T12000Z", "2026-12-05T12:00:00Z", "Sat, 05 Dec 2026 12:00:00 GMT", ""),
        texts());
  }

  @Property
  void answersAnAuthenticationErrorAndNothingElse(
      @ForAll("texts") String authorization, @ForAll("texts") String query,
      @ForAll("dates") String date, @ForAll boolean withHeader) {
    Map<String, List<String>> headers = withHeader
        ? Map.of("authorization", List.of(authorization), "x-amz-date", List.of(date),
            "host", List.of("127.0.0.1:8000"))
        : Map.of("date", List.of(date), "host", List.of("localhost"));
    SigV4.Request request = new SigV4.Request("POST", "/?" + query,
        name -> headers.get(name.toLowerCase(java.util.Locale.ROOT)),
        ByteBuffer.wrap("{}".getBytes(StandardCharsets.UTF_8)));
    try {
      SIGNATURES.verify(request);
      throw new AssertionError("a random signature was accepted: " + authorization + " " + query);
    } catch (DynamoDbException e) {
      assertThat(e.type()).isIn(AUTH_ERRORS);
      assertThat(e.getMessage()).isNotBlank();
    }
  }
}
