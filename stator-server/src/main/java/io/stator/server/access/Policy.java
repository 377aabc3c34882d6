package io.stator.server.access;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An identity-based policy in IAM's JSON policy language, the part that decides DynamoDB
 * requests: {@code Version}, {@code Id}, and {@code Statement} (one or a list), each with
 * {@code Sid}, {@code Effect}, {@code Action} or {@code NotAction}, {@code Resource} or {@code
 * NotResource}, {@code Condition} (see {@link Condition} for the operators and keys). A policy
 * that uses anything else is refused when it is read, never half understood: a condition Stator
 * does not evaluate would otherwise widen an Allow or drop a Deny.
 */
public record Policy(List<Statement> statements) {
  private static final Set<String> VERSIONS = Set.of("2012-10-17", "2008-10-17");
  private static final Set<String> DOCUMENT_MEMBERS = Set.of("Version", "Id", "Statement");
  private static final Set<String> STATEMENT_MEMBERS =
      Set.of("Sid", "Effect", "Action", "NotAction", "Resource", "NotResource", "Condition");

  public Policy {
    statements = List.copyOf(statements);
  }

  /** The policy of a JSON document; IllegalArgumentException saying what is wrong. */
  public static Policy parse(String json) {
    return of(read(json), false);
  }

  /**
   * A resource-based policy (PutResourcePolicy's document): each statement names its {@code
   * Principal}, {@code "*"} or {@code {"AWS": ARN or [ARNs]}}.
   */
  public static Policy parseResourcePolicy(String json) {
    return of(read(json), true);
  }

  private static Object read(String json) {
    try {
      return JsonTree.read(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("the policy is not JSON: " + e.getMessage());
    }
  }

  /** The identity-based policy of a document already read as JSON (see {@link JsonTree}). */
  static Policy of(Object document) {
    return of(document, false);
  }

  private static Policy of(Object document, boolean resourceBased) {
    if (!(document instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException("a policy is a JSON object");
    }
    for (Object member : map.keySet()) {
      if (!DOCUMENT_MEMBERS.contains(member)) {
        throw new IllegalArgumentException("a policy has no member \"" + member + "\"");
      }
    }
    Object version = map.get("Version");
    if (version != null && !VERSIONS.contains(version)) {
      throw new IllegalArgumentException("the policy's Version is 2012-10-17, not " + version);
    }
    Object statement = map.get("Statement");
    if (statement == null) {
      throw new IllegalArgumentException("a policy needs a Statement");
    }
    List<Statement> statements = new ArrayList<>();
    for (Object s : statement instanceof List<?> list ? list : List.of(statement)) {
      statements.add(statement(s, statements.size(), resourceBased));
    }
    return new Policy(statements);
  }

  private static Statement statement(Object json, int index, boolean resourceBased) {
    String where = "Statement " + (index + 1);
    if (!(json instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(where + " is not a JSON object");
    }
    for (Object member : map.keySet()) {
      if ((member.equals("Principal") && !resourceBased) || member.equals("NotPrincipal")) {
        throw new IllegalArgumentException(where + ": " + (resourceBased
            ? "NotPrincipal is not supported"
            : "an identity-based policy names no " + member + " (its user is its principal)"));
      }
      if (member.equals("Principal")) {
        continue;
      }
      if (!STATEMENT_MEMBERS.contains(member)) {
        throw new IllegalArgumentException(where + " has no member \"" + member + "\"");
      }
    }
    Object effect = map.get("Effect");
    if (!"Allow".equals(effect) && !"Deny".equals(effect)) {
      throw new IllegalArgumentException(where + ": Effect is Allow or Deny, not " + effect);
    }
    boolean notAction = map.containsKey("NotAction");
    boolean notResource = map.containsKey("NotResource");
    return new Statement(
        effect.equals("Allow"),
        oneOf(map, where, "Action", "NotAction"),
        notAction,
        oneOf(map, where, "Resource", "NotResource"),
        notResource,
        conditions(map.get("Condition"), where),
        resourceBased ? principals(map.get("Principal"), where) : null);
  }

  /** {@code "*"}, or {@code {"AWS": ARN or [ARNs]}}: the principals a statement is about. */
  private static List<String> principals(Object json, String where) {
    if ("*".equals(json)) {
      return List.of("*");
    }
    if (json instanceof Map<?, ?> map && map.size() == 1 && map.containsKey("AWS")) {
      Object aws = map.get("AWS");
      List<?> values = aws instanceof List<?> list ? list : List.of(aws == null ? "" : aws);
      List<String> out = new ArrayList<>();
      for (Object v : values) {
        if (!(v instanceof String s) || s.isEmpty()) {
          throw new IllegalArgumentException(where + ": Principal's AWS is an ARN or a list");
        }
        out.add(s);
      }
      if (!out.isEmpty()) {
        return out;
      }
    }
    throw new IllegalArgumentException(where + ": a resource-based policy's statement needs a"
        + " Principal: \"*\" or {\"AWS\": ARN or [ARNs]}");
  }

  /** {@code {"Operator": {"key": value or [values], ...}, ...}}: every one must hold. */
  private static List<Condition> conditions(Object json, String where) {
    if (json == null) {
      return List.of();
    }
    if (!(json instanceof Map<?, ?> operators) || operators.isEmpty()) {
      throw new IllegalArgumentException(where + ": Condition is an object of operators");
    }
    List<Condition> out = new ArrayList<>();
    for (Map.Entry<?, ?> operator : operators.entrySet()) {
      if (!(operator.getValue() instanceof Map<?, ?> keys) || keys.isEmpty()) {
        throw new IllegalArgumentException(where + ": the condition " + operator.getKey()
            + " is an object of condition keys and their values");
      }
      for (Map.Entry<?, ?> key : keys.entrySet()) {
        List<?> raw = key.getValue() instanceof List<?> list ? list : List.of(key.getValue());
        List<String> values = new ArrayList<>();
        for (Object v : raw) {
          if (!(v instanceof String s)) {
            throw new IllegalArgumentException(where + ": the values of " + key.getKey()
                + " are strings");
          }
          values.add(s);
        }
        out.add(Condition.of((String) operator.getKey(), (String) key.getKey(), values, where));
      }
    }
    return out;
  }

  /** The strings of exactly one of the two members: a string or a non-empty list of them. */
  private static List<String> oneOf(Map<?, ?> map, String where, String name, String negated) {
    if (map.containsKey(name) == map.containsKey(negated)) {
      throw new IllegalArgumentException(where + " needs one of " + name + " and " + negated);
    }
    String member = map.containsKey(name) ? name : negated;
    Object value = map.get(member);
    List<?> values = value instanceof List<?> list ? list : List.of(value == null ? "" : value);
    List<String> out = new ArrayList<>();
    for (Object v : values) {
      if (!(v instanceof String s) || s.isEmpty()) {
        throw new IllegalArgumentException(where + ": " + member
            + " is a string or a list of strings, none empty");
      }
      out.add(s);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(where + ": " + member + " is empty");
    }
    return out;
  }
}
