package io.stator.server.access;

import java.util.List;

/**
 * One statement of a policy: its effect, the actions it names (or, with {@code NotAction}, all
 * others), the resources (or, with {@code NotResource}, all others), and the conditions that
 * must all hold for it to apply. A statement of a resource-based policy also names the
 * principals it is about ({@code *} for all); an identity-based one has none (null): its user.
 */
record Statement(
    boolean allow,
    List<String> actions,
    boolean notAction,
    List<String> resources,
    boolean notResource,
    List<Condition> conditions,
    List<String> principals) {

  Statement(boolean allow, List<String> actions, boolean notAction, List<String> resources,
      boolean notResource) {
    this(allow, actions, notAction, resources, notResource, List.of(), null);
  }

  /** Whether the statement names {@code action} on {@code resource}, its conditions aside. */
  boolean appliesTo(String action, String resource) {
    return anyMatch(actions, action, true) != notAction
        && anyMatch(resources, resource, false) != notResource;
  }

  /**
   * Whether the statement applies to the permission asked, or null when that hangs on a value
   * of the request that cannot be known (see {@link RequestContext#UNKNOWN}).
   */
  Boolean appliesTo(AccessRequest asked, Principal principal) {
    if (!appliesTo(asked.action(), asked.resource())
        || (principals != null && !principals.contains("*")
            && !principals.contains(principal.arn()))) {
      return false;
    }
    boolean unknown = false;
    for (Condition c : conditions) {
      Boolean holds = c.holds(asked.context(), principal);
      if (holds == null) {
        unknown = true;
      } else if (!holds) {
        return false;
      }
    }
    return unknown ? null : true;
  }

  private static boolean anyMatch(List<String> patterns, String text, boolean ignoreCase) {
    for (String pattern : patterns) {
      if (Wildcard.matches(pattern, text, ignoreCase)) {
        return true;
      }
    }
    return false;
  }
}
