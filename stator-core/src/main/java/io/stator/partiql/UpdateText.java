package io.stator.partiql;

import io.stator.api.DynamoDbException;
import java.util.ArrayList;
import java.util.List;

/**
 * An UPDATE's SET and REMOVE actions as an UpdateExpression. {@code SET s = set_add(s, <<...>>)}
 * and {@code set_delete} are the expression's ADD and DELETE of set members.
 */
final class UpdateText {
  private UpdateText() {}

  static String of(List<Statement.Action> actions, ExpressionText text) {
    List<String> set = new ArrayList<>();
    List<String> add = new ArrayList<>();
    List<String> delete = new ArrayList<>();
    List<String> remove = new ArrayList<>();
    for (Statement.Action action : actions) {
      if (action instanceof Statement.Action.Remove r) {
        remove.add(text.path(r.path()));
        continue;
      }
      Statement.Action.Set s = (Statement.Action.Set) action;
      String target = text.path(s.path());
      if (s.value() instanceof Term.Call call
          && (call.function().equals("set_add") || call.function().equals("set_delete"))) {
        if (call.arguments().size() != 2 || !call.arguments().get(0).equals(s.path())) {
          throw Statements.malformed(
              call.function() + " takes the attribute it sets and a set: SET a = "
                  + call.function() + "(a, <<...>>)");
        }
        String members = text.value(text.bind(call.arguments().get(1)));
        (call.function().equals("set_add") ? add : delete).add(target + " " + members);
      } else {
        checkArithmetic(s.value(), text);
        set.add(target + " = " + text.operand(s.value()));
      }
    }
    StringBuilder expression = new StringBuilder();
    clause(expression, "SET", set);
    clause(expression, "ADD", add);
    clause(expression, "DELETE", delete);
    clause(expression, "REMOVE", remove);
    return expression.toString();
  }

  /**
   * Refuses {@code +} or {@code -} of a value that is no number where the statement is read, in
   * DynamoDB's words ("operand type: S", "L", "NULL"), before anything runs: so an
   * ExecuteTransaction names the statement's place, as recorded, and a failing condition does
   * not hide it.
   */
  private static void checkArithmetic(Term value, ExpressionText text) {
    if (!(value instanceof Term.Arithmetic arithmetic)) {
      return;
    }
    for (Term operand : List.of(arithmetic.left(), arithmetic.right())) {
      checkArithmetic(operand, text);
      if (operand instanceof Term.Literal || operand instanceof Term.Parameter
          || operand instanceof Term.ListTerm || operand instanceof Term.MapTerm
          || operand instanceof Term.SetTerm) {
        String type = text.bind(operand).type();
        if (!type.equals("N")) {
          throw DynamoDbException.validation("Incorrect operand type for operator or function;"
              + " operator or function: " + arithmetic.operator() + ", operand type: " + type);
        }
      }
    }
  }

  private static void clause(StringBuilder expression, String keyword, List<String> actions) {
    if (!actions.isEmpty()) {
      expression.append(expression.isEmpty() ? "" : " ").append(keyword).append(' ');
      expression.append(String.join(", ", actions));
    }
  }
}
