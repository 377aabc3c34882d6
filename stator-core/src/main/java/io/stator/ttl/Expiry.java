package io.stator.ttl;

import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.value.AttributeValue;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * When an item has expired, as DynamoDB's Time to Live decides it: the TTL attribute is a
 * Number of seconds since the epoch that lies before now. Any other type, or no attribute,
 * never expires; a value more than five years in the past is ignored (DynamoDB documents that it
 * does not delete such items, so that a value in milliseconds or a stale default cannot wipe a
 * table).
 */
final class Expiry {
  private Expiry() {}

  /** Whether an item whose TTL attribute is {@code value} has expired at {@code now}. */
  static boolean isExpired(AttributeValue value, Instant now) {
    if (!(value instanceof AttributeValue.N n)) {
      return false;
    }
    BigDecimal seconds = new BigDecimal(n.value());
    return seconds.compareTo(seconds(now)) < 0 && seconds.compareTo(seconds(oldest(now))) >= 0;
  }

  /**
   * The same test as a condition of the delete, so the engine evaluates it again against the
   * item's current version: an item whose TTL was pushed back (or removed) between the sweeper's
   * read and its delete is left alone. A comparison of a non-Number with a Number is false in
   * DynamoDB's expressions, so the condition also demands a Number.
   */
  static ConditionExpression stillExpired(String attributeName, Instant now) {
    ExpressionContext context =
        new ExpressionContext(
            Map.of("#ttl", attributeName),
            Map.of(
                ":now", AttributeValue.n(seconds(now).toPlainString()),
                ":oldest", AttributeValue.n(seconds(oldest(now)).toPlainString())));
    return Expressions.parseCondition(
        "#ttl < :now AND #ttl >= :oldest", context, "ConditionExpression");
  }

  /** The oldest expiry still honoured: five years before {@code now}. */
  static Instant oldest(Instant now) {
    return now.atZone(ZoneOffset.UTC).minusYears(5).toInstant();
  }

  private static BigDecimal seconds(Instant instant) {
    return BigDecimal.valueOf(instant.toEpochMilli(), 3);
  }
}
