package io.stator.expression;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * The expression engine's entry points: parse an expression once per request, then evaluate or
 * apply the syntax tree for each item.
 *
 * <p>Every parse error is a {@code DynamoDbException} of type ValidationException with DynamoDB's
 * message, prefixed by the request parameter ("Invalid ConditionExpression: ..."). Parsing
 * resolves placeholders through the request's {@link ExpressionContext}; after parsing all of a
 * request's expressions, call {@link ExpressionContext#checkAllUsed()}.
 */
public final class Expressions {
  private Expressions() {}

  /**
   * Parses a ConditionExpression, FilterExpression or KeyConditionExpression (one grammar; the
   * caller checks a KeyConditionExpression's extra rules against the key schema).
   *
   * @param parameterName the request parameter, used in error messages, e.g. "FilterExpression"
   */
  public static ConditionExpression parseCondition(
      String text, ExpressionContext context, String parameterName) {
    return Parser.condition(text, context, parameterName);
  }

  /** Parses a ProjectionExpression: comma-separated document paths that must not overlap. */
  public static List<Path> parseProjection(String text, ExpressionContext context) {
    return Parser.projection(text, context);
  }

  /**
   * Parses an UpdateExpression. Besides syntax, reserved words and placeholders, this checks
   * everything DynamoDB checks before reading the item: each clause at most once, no two action
   * paths overlapping or conflicting, only {@code if_not_exists} and {@code list_append} as
   * functions, operand types of {@code :value}s (ADD takes a number or a set, DELETE a set, + and
   * - numbers, list_append lists) and the limit of 300 operators.
   */
  public static UpdateExpression parseUpdate(String text, ExpressionContext context) {
    return Parser.update(text, context);
  }

  /**
   * Applies an update to an item and returns the new item (a new map; the old one is not
   * changed). A missing item is an empty map; the result may then be empty too, and the caller
   * adds the key. Errors that depend on the item are ValidationExceptions with DynamoDB's
   * messages; checking the item size limit and key attributes is the caller's job.
   */
  public static Map<String, AttributeValue> applyUpdate(
      UpdateExpression update, Map<String, AttributeValue> oldItem) {
    return Updater.apply(update, oldItem);
  }

  /**
   * The attributes an update wrote, as ReturnValues UPDATED_OLD (pass the old item) and
   * UPDATED_NEW (pass the new item) return them: the item projected onto the action paths, so
   * {@code SET a.b = :v} returns {@code {a: {b: ...}}} and not all of {@code a}. A path that
   * does not resolve in the given item (a new attribute in the old item, a removed one in the new
   * item) is left out.
   */
  public static Map<String, AttributeValue> updatedAttributes(
      UpdateExpression update, Map<String, AttributeValue> item) {
    return Projector.project(item, update.paths());
  }

  /** Whether the item satisfies the condition. A missing item is an empty map. */
  public static boolean evaluate(ConditionExpression condition, Map<String, AttributeValue> item) {
    return Evaluator.evaluate(condition, item);
  }

  /** The value at a document path of an item, or null when the path does not resolve. */
  public static AttributeValue resolve(Path path, Map<String, AttributeValue> item) {
    return Evaluator.resolve(path, item);
  }

  /** The value of an operand for an item, or null when it is absent. */
  public static AttributeValue value(Operand operand, Map<String, AttributeValue> item) {
    return Evaluator.value(operand, item);
  }

  /** The part of an item selected by the paths of a ProjectionExpression, in DynamoDB's shape. */
  public static Map<String, AttributeValue> project(
      Map<String, AttributeValue> item, List<Path> paths) {
    return Projector.project(item, paths);
  }
}
