package io.stator.server.access;

/**
 * Who signed a request: the ARN that AccessDeniedException names, and the identity-based
 * policy that decides what it may do; a null policy may do everything, as an account's root
 * user may (the keys of the plain credentials file).
 */
public record Principal(String arn, Policy policy) {
  public boolean unrestricted() {
    return policy == null;
  }

  /** The user's name, what {@code ${aws:username}} stands for in a policy. */
  public String userName() {
    return arn.substring(arn.lastIndexOf('/') + 1);
  }
}
