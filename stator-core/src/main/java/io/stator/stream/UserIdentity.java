package io.stator.stream;

/**
 * Who made a write, when it was not the caller of the API: DynamoDB's stream records carry a
 * {@code userIdentity} ({@code Type}, {@code PrincipalId}) only for changes the service made
 * itself, namely Time to Live deletions. A write made for a client carries no identity (null).
 *
 * @param type "Service"
 * @param principalId "dynamodb.amazonaws.com"
 */
public record UserIdentity(String type, String principalId) {
  /** The identity of deletions by the Time to Live sweeper, as DynamoDB Streams records it. */
  public static final UserIdentity TIME_TO_LIVE =
      new UserIdentity("Service", "dynamodb.amazonaws.com");
}
