package io.stator.expression;

import io.stator.value.AttributeValue;
import java.util.Map;

/**
 * The ExpressionAttributeNames and ExpressionAttributeValues of one request, shared by all of its
 * expressions. Parsing records which placeholders were used, so that {@link #checkAllUsed()} can
 * report unused ones as DynamoDB does. To be completed with the parser.
 */
public final class ExpressionContext {
  private final Map<String, String> names;
  private final Map<String, AttributeValue> values;

  public ExpressionContext(Map<String, String> names, Map<String, AttributeValue> values) {
    this.names = names == null ? Map.of() : names;
    this.values = values == null ? Map.of() : values;
  }

  public Map<String, String> names() {
    return names;
  }

  public Map<String, AttributeValue> values() {
    return values;
  }
}
