package io.stator.server.access;

import io.stator.api.QueryRequest;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Operand;
import io.stator.expression.Path;
import io.stator.value.AttributeValue;
import java.util.List;

/** The values of {@code dynamodb:LeadingKeys}: partition key values, as a policy writes them. */
final class LeadingKeys {
  private LeadingKeys() {}

  /**
   * The partition key value a Query's key condition asks for ({@code pk = :v}, in the expression
   * or the legacy KeyConditions), or null when it cannot be found (the Query then fails its own
   * validation).
   */
  static AttributeValue ofQuery(QueryRequest r, String partitionKey) {
    if (r.keyConditions() != null) {
      var condition = r.keyConditions().get(partitionKey);
      return condition == null || condition.attributeValueList() == null
          || condition.attributeValueList().size() != 1
          ? null : condition.attributeValueList().get(0);
    }
    if (r.keyConditionExpression() == null) {
      return null;
    }
    ConditionExpression parsed;
    try {
      parsed = Expressions.parseCondition(r.keyConditionExpression(),
          new ExpressionContext(r.expressionAttributeNames(), r.expressionAttributeValues()),
          "KeyConditionExpression");
    } catch (RuntimeException invalid) {
      return null;
    }
    return equality(parsed, partitionKey);
  }

  private static AttributeValue equality(ConditionExpression e, String partitionKey) {
    if (e instanceof ConditionExpression.And and) {
      AttributeValue left = equality(and.left(), partitionKey);
      return left != null ? left : equality(and.right(), partitionKey);
    }
    if (e instanceof ConditionExpression.Comparison c
        && c.comparator() == ConditionExpression.Comparator.EQ) {
      if (names(c.left(), partitionKey) && c.right() instanceof Operand.ValueOperand v) {
        return v.value();
      }
      if (names(c.right(), partitionKey) && c.left() instanceof Operand.ValueOperand v) {
        return v.value();
      }
    }
    return null;
  }

  private static boolean names(Operand operand, String attribute) {
    return operand instanceof Operand.PathOperand p
        && p.path().elements().equals(List.of(new Path.Name(attribute)));
  }
}
