package io.stator.server.access;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.util.List;

/**
 * IAM's decision for one principal's request, over its identity-based policy: each permission
 * the request needs must be allowed by a statement and denied by none. An explicit Deny wins
 * over any Allow; a permission no statement allows is denied. The first permission refused
 * answers AccessDeniedException, in AWS's words: the principal, the action, the resource, and
 * whether a Deny refused it or no Allow was found.
 */
public final class Authorization {
  private Authorization() {}

  /** Throws DynamoDB's AccessDeniedException unless {@code principal} may do all of {@code needed}. */
  public static void check(Principal principal, List<AccessRequest> needed) {
    if (principal.unrestricted()) {
      return;
    }
    for (AccessRequest a : needed) {
      boolean allowed = false;
      for (Statement s : principal.policy().statements()) {
        Boolean applies = s.appliesTo(a, principal);
        // A Deny whose conditions cannot be judged is taken to apply; such an Allow is not.
        if (!s.allow() && applies != Boolean.FALSE) {
          throw denied(principal, a, "with an explicit deny in an identity-based policy");
        }
        allowed |= s.allow() && applies == Boolean.TRUE;
      }
      if (!allowed) {
        throw denied(principal, a,
            "because no identity-based policy allows the " + a.action() + " action");
      }
    }
  }

  private static DynamoDbException denied(Principal principal, AccessRequest a, String why) {
    return new DynamoDbException(ErrorType.AccessDeniedException,
        "User: " + principal.arn() + " is not authorized to perform: " + a.action()
            + " on resource: " + a.resource() + " " + why);
  }
}
