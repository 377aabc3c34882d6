package io.stator.item;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import java.util.Map;

/**
 * DynamoDB's limit on how deep maps and lists nest in an item: 32 levels, the attribute itself
 * being level 1. The wire checks a value as it is read; an UpdateItem's result is checked here,
 * since a SET at a nested path can make a value deeper than any value the request carried.
 */
public final class ItemNesting {
  /** The deepest level DynamoDB keeps: a value of 31 nested maps or lists has its leaf there. */
  public static final int MAX_LEVELS = 32;

  /** DynamoDB's words for an item nested deeper than {@link #MAX_LEVELS}. */
  public static final String TOO_DEEP = "Nesting Levels have exceeded supported limits:"
      + " Attributes in the item have nested levels beyond supported limit";

  private ItemNesting() {}

  /** Throws DynamoDB's ValidationException when a value of {@code item} nests too deep. */
  public static void check(Map<String, AttributeValue> item) {
    for (AttributeValue value : item.values()) {
      if (tooDeep(value, 1)) {
        throw DynamoDbException.validation(TOO_DEEP);
      }
    }
  }

  /**
   * Whether {@code value}, at {@code level}, nests past the limit. A map or list has its members
   * one level down, so one at the last level is too deep even when empty, as the wire counts it.
   */
  private static boolean tooDeep(AttributeValue value, int level) {
    if (value instanceof AttributeValue.M m) {
      if (level >= MAX_LEVELS) {
        return true;
      }
      for (AttributeValue member : m.value().values()) {
        if (tooDeep(member, level + 1)) {
          return true;
        }
      }
    } else if (value instanceof AttributeValue.L l) {
      if (level >= MAX_LEVELS) {
        return true;
      }
      for (AttributeValue member : l.value()) {
        if (tooDeep(member, level + 1)) {
          return true;
        }
      }
    }
    return false;
  }
}
