package io.stator.bench;

import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Path;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Expressions: parsing (once per request) and evaluating (once per item), for a typical
 * ConditionExpression and ProjectionExpression.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ExpressionBench {
  private static final String CONDITION =
      "attribute_exists(pk) AND #n >= :zero AND begins_with(gsk, :prefix)"
          + " AND NOT contains(payload, :absent) AND size(payload) < :limit";
  private static final Map<String, String> NAMES = Map.of("#n", "n");
  private static final Map<String, AttributeValue> VALUES =
      Map.of(
          ":zero", AttributeValue.n("0"),
          ":prefix", AttributeValue.s("p0007#"),
          ":absent", AttributeValue.s("zz"),
          ":limit", AttributeValue.n("4096"));

  private final Map<String, AttributeValue> item = Data.item(7, 3, 73);
  private final ConditionExpression condition =
      Expressions.parseCondition(CONDITION, new ExpressionContext(NAMES, VALUES), "Condition");
  private final List<Path> projection =
      Expressions.parseProjection("pk, sk, #n, gsk", new ExpressionContext(NAMES, null));

  @Benchmark
  public ConditionExpression parseCondition() {
    return Expressions.parseCondition(
        CONDITION, new ExpressionContext(NAMES, VALUES), "ConditionExpression");
  }

  @Benchmark
  public boolean evaluateCondition() {
    return Expressions.evaluate(condition, item);
  }

  @Benchmark
  public boolean parseAndEvaluate() {
    return Expressions.evaluate(parseCondition(), item);
  }

  @Benchmark
  public Map<String, AttributeValue> project() {
    return Expressions.project(item, projection);
  }
}
