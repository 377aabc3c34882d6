package io.stator.expression;

/**
 * The ten type names {@code attribute_type} accepts (DynamoDB's data type descriptors), and the
 * words DynamoDB names the types with in an operator's operand type error ({@code operand type:
 * LIST}).
 */
final class TypeNames {
  private TypeNames() {}

  /** The word for a descriptor: {@code STRING}, {@code NUMBER_SET}, {@code BOOLEAN}... */
  static String word(String descriptor) {
    return switch (descriptor) {
      case "S" -> "STRING";
      case "N" -> "NUMBER";
      case "B" -> "BINARY";
      case "BOOL" -> "BOOLEAN";
      case "NULL" -> "NULL";
      case "M" -> "MAP";
      case "L" -> "LIST";
      case "SS" -> "STRING_SET";
      case "NS" -> "NUMBER_SET";
      case "BS" -> "BINARY_SET";
      default -> throw new IllegalArgumentException(descriptor);
    };
  }

  static boolean isValid(String name) {
    switch (name) {
      case "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS":
        return true;
      default:
        return false;
    }
  }
}
