package io.stator.schema;

import io.stator.api.DynamoDbException;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects violations of request-level parameter constraints and reports them the way DynamoDB
 * does: {@code 1 validation error detected: Value '0' at 'limit' failed to satisfy constraint:
 * Member must have value greater than or equal to 1}, several joined by {@code "; "} (at most
 * ten, as DynamoDB reports).
 */
public final class Constraints {
  /** DynamoDB's pattern for table and index names. */
  public static final String NAME_PATTERN = "[a-zA-Z0-9_.-]+";

  private final List<String> errors = new ArrayList<>();

  public Constraints notNull(String path, Object value) {
    if (value == null) {
      add(path, null, "Member must not be null");
    }
    return this;
  }

  public Constraints atLeast(String path, Number value, long min) {
    if (value != null && value.longValue() < min) {
      add(path, value, "Member must have value greater than or equal to " + min);
    }
    return this;
  }

  public Constraints atMost(String path, Number value, long max) {
    if (value != null && value.longValue() > max) {
      add(path, value, "Member must have value less than or equal to " + max);
    }
    return this;
  }

  public Constraints lengthAtLeast(String path, Object shown, int length, int min) {
    if (shown != null && length < min) {
      add(path, shown, "Member must have length greater than or equal to " + min);
    }
    return this;
  }

  public Constraints lengthAtMost(String path, Object shown, int length, int max) {
    if (shown != null && length > max) {
      add(path, shown, "Member must have length less than or equal to " + max);
    }
    return this;
  }

  /**
   * A table or index name: 3 to 255 characters, then the pattern, the order DynamoDB is recorded
   * to give for a name it checks itself (DescribeTable's empty name, an index's).
   */
  public Constraints name(String path, String value) {
    if (value == null) {
      return this;
    }
    lengthAtLeast(path, value, value.length(), 3);
    lengthAtMost(path, value, value.length(), 255);
    if (!isName(value)) {
      add(path, value, "Member must satisfy regular expression pattern: " + NAME_PATTERN);
    }
    return this;
  }

  /** Whether {@code value} matches {@link #NAME_PATTERN}; a loop, as every request checks one. */
  private static boolean isName(String value) {
    if (value.isEmpty()) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      boolean allowed = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
          || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
      if (!allowed) {
        return false;
      }
    }
    return true;
  }

  public Constraints oneOf(String path, String value, String... allowed) {
    if (value != null && !contains(allowed, value)) {
      add(path, value, "Member must satisfy enum value set: [" + String.join(", ", allowed) + "]");
    }
    return this;
  }

  private static boolean contains(String[] allowed, String value) {
    for (String a : allowed) {
      if (a.equals(value)) {
        return true;
      }
    }
    return false;
  }

  public void add(String path, Object value, String constraint) {
    if (errors.size() < 10) {
      String shown = value == null ? "null" : "'" + value + "'";
      errors.add("Value " + shown + " at '" + path + "' failed to satisfy constraint: " + constraint);
    }
  }

  /** Throws the collected violations as one ValidationException, if there are any. */
  public void check() {
    if (!errors.isEmpty()) {
      throw DynamoDbException.validation(
          errors.size() + " validation error" + (errors.size() > 1 ? "s" : "") + " detected: "
              + String.join("; ", errors));
    }
  }
}
