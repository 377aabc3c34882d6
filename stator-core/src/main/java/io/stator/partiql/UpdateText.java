package io.stator.partiql;

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

  private static void clause(StringBuilder expression, String keyword, List<String> actions) {
    if (!actions.isEmpty()) {
      expression.append(expression.isEmpty() ? "" : " ").append(keyword).append(' ');
      expression.append(String.join(", ", actions));
    }
  }
}
