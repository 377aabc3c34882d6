package io.stator.value;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/** DynamoDB's rules for set values: never empty, never duplicates. */
final class Sets {
  private Sets() {}

  // DynamoDB's messages differ per set type (recorded by peers): kept verbatim, odd spacing too.
  static <T> Set<T> checked(Collection<T> values, String type) {
    if (values.isEmpty()) {
      throw new InvalidValueException(
          switch (type) {
            case "SS" -> "One or more parameter values were invalid: An string set  may not be empty";
            case "NS" -> "One or more parameter values were invalid: An number set  may not be empty";
            default -> "One or more parameter values were invalid: Binary sets should not be empty";
          });
    }
    Set<T> set = new LinkedHashSet<>(values);
    if (set.size() != values.size()) {
      throw new InvalidValueException(
          switch (type) {
            case "SS" -> "One or more parameter values were invalid: Input collection "
                + values + " contains duplicates.";
            case "NS" -> "Input collection contains duplicates";
            default -> "One or more parameter values were invalid: Input collection "
                + values + "of type BS contains duplicates.";
          });
    }
    return set;
  }
}
