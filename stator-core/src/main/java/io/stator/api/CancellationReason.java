package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/**
 * Why one action of a cancelled transaction failed: code {@code None} (with no message) for an
 * action that was fine, else e.g. {@code ConditionalCheckFailed}, {@code TransactionConflict},
 * {@code ValidationError}; the item when ReturnValuesOnConditionCheckFailure is ALL_OLD.
 */
public record CancellationReason(Map<String, AttributeValue> item, String code, String message) {
  public static final CancellationReason NONE = new CancellationReason(null, "None", null);

  public boolean isNone() {
    return "None".equals(code);
  }
}
