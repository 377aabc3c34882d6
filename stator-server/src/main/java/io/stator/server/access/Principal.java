package io.stator.server.access;

import java.util.Objects;

/**
 * Who signed a request: the ARN that AccessDeniedException names, and the identity-based
 * policy that decides what it may do. A key that may do everything (the plain key file's) has
 * no principal at all.
 */
public record Principal(String arn, Policy policy) {
  public Principal {
    Objects.requireNonNull(policy, "policy");
  }

  /** The user's name, what {@code ${aws:username}} stands for in a policy. */
  public String userName() {
    return arn.substring(arn.lastIndexOf('/') + 1);
  }
}
