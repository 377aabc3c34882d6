package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Random SELECTs over random items return what the equivalent Query or Scan, written with
 * expressions, returns: a SELECT that names one partition the same items in the same order as
 * the Query; one that names several (IN) the Queries of each, in key order; one that names none
 * the Scan's items. Each statement is read to its end in pages of a random Limit. The seed is
 * fixed, so that a failure repeats; {@code -Dstator.test.partiqlSeed=N} tries another.
 */
class PartiqlPropertyTest extends EndToEndTest {
  private static final int STATEMENTS = 150;
  private static final List<String> PARTITIONS = List.of("p0", "p1", "p2", "p3");
  private static final List<String> WORDS = List.of("x", "xy", "xz", "y", "zz");

  private final Random random = new Random(Long.getLong("stator.test.partiqlSeed", 20261205L));

  /** A condition written twice: in PartiQL and as a DynamoDB expression over placeholders. */
  private record Condition(String partiql, String expression) {}

  /** The placeholders of one expression's values. */
  private final Map<String, AttributeValue> values = new LinkedHashMap<>();

  @Test
  void aSelectReturnsWhatItsQueryOrScanReturns() {
    String table = createTable("pql-prop", "pk", ScalarAttributeType.S, "sk",
        ScalarAttributeType.N);
    for (int i = 0; i < 40; i++) {
      Map<String, AttributeValue> item = new LinkedHashMap<>();
      item.put("pk", s(PARTITIONS.get(random.nextInt(PARTITIONS.size()))));
      item.put("sk", n(Integer.toString(random.nextInt(10))));
      if (random.nextInt(4) > 0) {
        item.put("a", n(Integer.toString(random.nextInt(6))));
      }
      if (random.nextInt(4) > 0) {
        item.put("b", s(WORDS.get(random.nextInt(WORDS.size()))));
      }
      dynamo.putItem(r -> r.tableName(table).item(item));
    }
    for (int i = 0; i < STATEMENTS; i++) {
      values.clear();
      Condition filter = random.nextInt(5) == 0 ? null : condition(3);
      Condition sort = random.nextBoolean() ? sortKeyCondition() : null;
      int keys = random.nextInt(3); // partitions named: none, one, several
      List<String> partitions = new ArrayList<>(new TreeSet<>(List.of(
          PARTITIONS.get(random.nextInt(PARTITIONS.size())),
          PARTITIONS.get(random.nextInt(PARTITIONS.size())))));
      StringBuilder where = new StringBuilder();
      if (keys == 1) {
        where.append("pk = '").append(partitions.get(0)).append("'");
      } else if (keys == 2) {
        where.append("pk IN (");
        for (int p = 0; p < partitions.size(); p++) {
          where.append(p == 0 ? "'" : ", '").append(partitions.get(p)).append("'");
        }
        where.append(")");
      }
      for (Condition c : new Condition[] {keys == 0 ? null : sort, filter}) {
        if (c != null) {
          where.append(where.isEmpty() ? "" : " AND ").append(c.partiql());
        }
      }
      String statement = "SELECT * FROM \"" + table + "\""
          + (where.isEmpty() ? "" : " WHERE " + where);
      List<Map<String, AttributeValue>> selected = selectAll(statement);

      if (keys == 0) {
        String scanFilter = filter == null ? null : filter.expression();
        List<Map<String, AttributeValue>> scanned = dynamo.scan(r -> r.tableName(table)
            .filterExpression(scanFilter).expressionAttributeNames(names(scanFilter))
            .expressionAttributeValues(used(scanFilter))).items();
        assertThat(selected).as(statement).containsExactlyInAnyOrderElementsOf(scanned);
      } else {
        List<Map<String, AttributeValue>> queried = new ArrayList<>();
        for (String partition : keys == 1 ? partitions.subList(0, 1) : partitions) {
          values.put(":pk", s(partition));
          String keyCondition = "pk = :pk" + (sort == null ? "" : " AND " + sort.expression());
          String queryFilter = filter == null ? null : filter.expression();
          QueryResponse page = dynamo.query(r -> r.tableName(table)
              .keyConditionExpression(keyCondition).filterExpression(queryFilter)
              .expressionAttributeNames(names(keyCondition + " " + queryFilter))
              .expressionAttributeValues(used(keyCondition + " " + queryFilter)));
          queried.addAll(page.items());
        }
        assertThat(selected).as(statement).containsExactlyElementsOf(queried);
      }
    }
  }

  /** Every item of the statement, read in pages of a random Limit (or none). */
  private List<Map<String, AttributeValue>> selectAll(String statement) {
    Integer limit = random.nextBoolean() ? null : 1 + random.nextInt(7);
    List<Map<String, AttributeValue>> all = new ArrayList<>();
    String token = null;
    do {
      String from = token;
      ExecuteStatementResponse page = dynamo.executeStatement(r -> r.statement(statement)
          .limit(limit).nextToken(from));
      all.addAll(page.items());
      token = page.nextToken();
    } while (token != null);
    return all;
  }

  private Condition sortKeyCondition() {
    int k = random.nextInt(10);
    return switch (random.nextInt(5)) {
      case 0 -> new Condition("sk > " + k, "sk > " + value(n(k)));
      case 1 -> new Condition("sk <= " + k, "sk <= " + value(n(k)));
      case 2 -> new Condition("sk = " + k, "sk = " + value(n(k)));
      case 3 -> new Condition("sk >= " + k, "sk >= " + value(n(k)));
      default -> new Condition("sk BETWEEN " + k + " AND " + (k + 3),
          "sk BETWEEN " + value(n(k)) + " AND " + value(n(k + 3)));
    };
  }

  private Condition condition(int depth) {
    int choice = random.nextInt(depth > 0 ? 12 : 9);
    int k = random.nextInt(6);
    String word = WORDS.get(random.nextInt(WORDS.size()));
    String[] operators = {"=", "<>", "<", "<=", ">", ">="};
    String operator = operators[random.nextInt(operators.length)];
    return switch (choice) {
      case 0 -> new Condition("a " + operator + " " + k, "#a " + operator + " " + value(n(k)));
      case 1 -> new Condition("b " + operator + " '" + word + "'",
          "#b " + operator + " " + value(s(word)));
      case 2 -> new Condition("a BETWEEN " + k + " AND " + (k + 2),
          "#a BETWEEN " + value(n(k)) + " AND " + value(n(k + 2)));
      case 3 -> new Condition("a IN (" + k + ", " + (k + 2) + ")",
          "#a IN (" + value(n(k)) + ", " + value(n(k + 2)) + ")");
      case 4 -> new Condition("begins_with(b, '" + word + "')",
          "begins_with(#b, " + value(s(word)) + ")");
      case 5 -> new Condition("contains(b, '" + word.substring(0, 1) + "')",
          "contains(#b, " + value(s(word.substring(0, 1))) + ")");
      case 6 -> new Condition("b IS MISSING", "attribute_not_exists(#b)");
      case 7 -> new Condition("a IS NOT MISSING", "attribute_exists(#a)");
      case 8 -> new Condition("size(b) > 1", "size(#b) > " + value(n(1)));
      case 9 -> {
        Condition c = condition(depth - 1);
        // An expression refuses redundant parentheses; PartiQL takes them
        String negated =
            c.expression().startsWith("(") ? c.expression() : "(" + c.expression() + ")";
        yield new Condition("NOT (" + c.partiql() + ")", "NOT " + negated);
      }
      default -> {
        Condition left = condition(depth - 1);
        Condition right = condition(depth - 1);
        String join = choice == 10 ? " AND " : " OR ";
        yield new Condition("(" + left.partiql() + join + right.partiql() + ")",
            "(" + left.expression() + join + right.expression() + ")");
      }
    };
  }

  private String value(AttributeValue value) {
    String placeholder = ":v" + values.size();
    values.put(placeholder, value);
    return placeholder;
  }

  private static AttributeValue n(int value) {
    return n(Integer.toString(value));
  }

  /** The values an expression uses: DynamoDB refuses one it does not. */
  private Map<String, AttributeValue> used(String expression) {
    if (expression == null) {
      return null;
    }
    Map<String, AttributeValue> used = new LinkedHashMap<>();
    values.forEach((placeholder, value) -> {
      if (expression.matches("(?s).*" + placeholder + "(?![0-9]).*")) {
        used.put(placeholder, value);
      }
    });
    return used.isEmpty() ? null : used;
  }

  private static Map<String, String> names(String expression) {
    if (expression == null) {
      return null;
    }
    Map<String, String> names = new LinkedHashMap<>();
    if (expression.contains("#a")) {
      names.put("#a", "a");
    }
    if (expression.contains("#b")) {
      names.put("#b", "b");
    }
    return names.isEmpty() ? null : names;
  }
}
