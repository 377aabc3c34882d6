package io.stator.value;

import io.stator.api.DynamoDbException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/** DynamoDB's rules for set values: never empty, never duplicates. */
final class Sets {
  private Sets() {}

  static <T> Set<T> checked(Collection<T> values, String type) {
    if (values.isEmpty()) {
      throw DynamoDbException.validation(
          "One or more parameter values were invalid: An string set  may not be empty"
              .replace("An string set ", setName(type)));
    }
    Set<T> set = new LinkedHashSet<>(values);
    if (set.size() != values.size()) {
      throw DynamoDbException.validation("Input collection " + values + " contains duplicates.");
    }
    return set;
  }

  private static String setName(String type) {
    return switch (type) {
      case "SS" -> "An string set ";
      case "NS" -> "An number set ";
      default -> "An binary set ";
    };
  }
}
