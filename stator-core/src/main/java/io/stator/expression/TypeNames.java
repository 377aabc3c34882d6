package io.stator.expression;

/** The ten type names {@code attribute_type} accepts: DynamoDB's data type descriptors. */
final class TypeNames {
  private TypeNames() {}

  static boolean isValid(String name) {
    switch (name) {
      case "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS":
        return true;
      default:
        return false;
    }
  }
}
