package io.stator.server.access;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.util.List;

/**
 * IAM's decision for one principal's request, in one account: each permission the request
 * needs must be allowed by a statement of the principal's identity-based policy or of the
 * resource's resource-based policy (a table's governs its indexes too; a stream has its own),
 * and denied by none of either. An explicit Deny wins over any Allow; a permission no statement
 * allows is denied. The first permission refused answers AccessDeniedException, in AWS's words:
 * the principal, the action, the resource, and which kind of policy denied it or that none
 * allowed it.
 */
public final class Authorization {
  /** The resource-based policy that governs a resource, or null. */
  @FunctionalInterface
  public interface ResourcePolicies {
    ResourcePolicies NONE = resource -> null;

    Policy governing(String resource);
  }

  private Authorization() {}

  /** Throws DynamoDB's AccessDeniedException unless {@code principal} may do all of {@code needed}. */
  public static void check(Principal principal, List<AccessRequest> needed) {
    check(principal, needed, ResourcePolicies.NONE);
  }

  /** As above, with the resources' own policies. */
  public static void check(
      Principal principal, List<AccessRequest> needed, ResourcePolicies resourcePolicies) {
    for (AccessRequest a : needed) {
      boolean allowed = decide(principal.policy(), a, principal, "an identity-based policy");
      Policy resourcePolicy = resourcePolicies.governing(a.resource());
      if (resourcePolicy != null) {
        allowed |= decide(resourcePolicy, a, principal, "a resource-based policy");
      }
      if (!allowed) {
        throw denied(principal, a,
            "because no identity-based policy allows the " + a.action() + " action");
      }
    }
  }

  /** Whether {@code policy} allows {@code a}; throws if it denies it. */
  private static boolean decide(Policy policy, AccessRequest a, Principal principal, String kind) {
    boolean allowed = false;
    for (Statement s : policy.statements()) {
      Boolean applies = s.appliesTo(a, principal);
      // A Deny whose conditions cannot be judged is taken to apply; such an Allow is not.
      if (!s.allow() && applies != Boolean.FALSE) {
        throw denied(principal, a, "with an explicit deny in " + kind);
      }
      allowed |= s.allow() && applies == Boolean.TRUE;
    }
    return allowed;
  }

  private static DynamoDbException denied(Principal principal, AccessRequest a, String why) {
    return new DynamoDbException(ErrorType.AccessDeniedException,
        "User: " + principal.arn() + " is not authorized to perform: " + a.action()
            + " on resource: " + a.resource() + " " + why);
  }
}
