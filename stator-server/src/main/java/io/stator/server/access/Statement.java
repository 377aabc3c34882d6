package io.stator.server.access;

import java.util.List;

/**
 * One statement of a policy: its effect, the actions it names (or, with {@code NotAction}, all
 * others) and the resources (or, with {@code NotResource}, all others).
 */
record Statement(
    boolean allow,
    List<String> actions,
    boolean notAction,
    List<String> resources,
    boolean notResource) {

  /** Whether the statement applies to {@code action} on {@code resource}. */
  boolean appliesTo(String action, String resource) {
    return anyMatch(actions, action, true) != notAction
        && anyMatch(resources, resource, false) != notResource;
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
