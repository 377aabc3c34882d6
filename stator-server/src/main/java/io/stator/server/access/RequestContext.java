package io.stator.server.access;

import java.util.List;

/**
 * The values of the condition keys of one permission a request needs, as IAM's request context
 * holds them: {@code dynamodb:LeadingKeys} (the partition key values of the items it reads or
 * writes), {@code dynamodb:Select}, {@code dynamodb:ReturnValues}.
 */
public interface RequestContext {
  /** Values that cannot be known of a request (Stator does not derive them yet). */
  List<String> UNKNOWN = List.of("\u0000unknown");

  /** A context without keys. */
  RequestContext NONE = key -> null;

  /**
   * The values of {@code key} (lower case), null when the request has none, or {@link #UNKNOWN}:
   * then an Allow conditioned on it does not apply and a Deny does, so what Stator cannot judge
   * is refused.
   */
  List<String> values(String key);
}
