package io.stator.server.auth;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a SigV4 signature says of itself: the key and scope it names, the headers it covers, the
 * time it was made and the signature, read from the Authorization header or a presigned query.
 */
record Signed(
    String accessKeyId,
    String date,
    String region,
    List<String> signedHeaders,
    String amzDate,
    String signature) {

  static Signed fromHeader(String authorization, String amzDate, String dateHeader) {
    String value = authorization.strip();
    int space = value.indexOf(' ');
    String algorithm = space < 0 ? value : value.substring(0, space);
    if (!algorithm.equals(SigV4.ALGORITHM)) {
      throw SigV4.incomplete("Unsupported AWS 'algorithm': '" + algorithm + "'");
    }
    Map<String, String> parts = new LinkedHashMap<>();
    for (String part : (space < 0 ? "" : value.substring(space + 1)).split(",")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        parts.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
      }
    }
    StringBuilder missing = new StringBuilder();
    for (String required : List.of("Credential", "Signature", "SignedHeaders")) {
      if (!parts.containsKey(required)) {
        missing.append("Authorization header requires '").append(required)
            .append("' parameter. ");
      }
    }
    String time = amzDate != null ? amzDate : fromHttpDate(dateHeader);
    if (time == null) {
      missing.append("Authorization header requires existence of either a 'X-Amz-Date' or a"
          + " 'Date' header. ");
    }
    if (!missing.isEmpty()) {
      throw SigV4.incomplete(missing + "Authorization=" + value);
    }
    return of(parts.get("Credential"), parts.get("SignedHeaders"), time,
        parts.get("Signature"));
  }

  static Signed fromQuery(Map<String, List<String>> query) {
    String algorithm = first(query, "X-Amz-Algorithm");
    if (!SigV4.ALGORITHM.equals(algorithm)) {
      throw SigV4.incomplete("Unsupported AWS 'algorithm': '" + algorithm + "'");
    }
    StringBuilder missing = new StringBuilder();
    for (String required : List.of("X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders",
        "X-Amz-Date")) {
      if (first(query, required) == null) {
        missing.append("AWS query-string parameters must include '").append(required)
            .append("'. ");
      }
    }
    if (!missing.isEmpty()) {
      throw SigV4.incomplete(missing + "Re-examine the query-string parameters.");
    }
    return of(first(query, "X-Amz-Credential"), first(query, "X-Amz-SignedHeaders"),
        first(query, "X-Amz-Date"), first(query, "X-Amz-Signature"));
  }

  private static Signed of(String credential, String signedHeaders, String amzDate,
      String signature) {
    String[] scope = credential.split("/", -1);
    if (scope.length != 5) {
      throw SigV4.incomplete("Credential must have exactly 5 slash-delimited elements, e.g."
          + " keyid/date/region/service/term, got '" + credential + "'");
    }
    if (!scope[3].equals("dynamodb")) {
      throw new DynamoDbException(ErrorType.InvalidSignatureException,
          "Credential should be scoped to correct service: 'dynamodb'. ");
    }
    if (!scope[4].equals("aws4_request")) {
      throw new DynamoDbException(ErrorType.InvalidSignatureException,
          "Credential should be scoped with a valid terminator: 'aws4_request', not '"
              + scope[4] + "'. ");
    }
    List<String> headers = new ArrayList<>(List.of(signedHeaders.split(";")));
    return new Signed(scope[0], scope[1], scope[2], headers, amzDate, signature);
  }

  /** An RFC 1123 {@code Date} header as SigV4's basic ISO 8601 time, or null. */
  private static String fromHttpDate(String date) {
    if (date == null) {
      return null;
    }
    try {
      ZonedDateTime time = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME);
      return DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
          .format(time.withZoneSameInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String first(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
