package io.stator.expression;

import java.util.ArrayList;
import java.util.List;

/**
 * The syntax tree of an UpdateExpression: its actions in the order written, whatever the clause
 * (SET, REMOVE, ADD, DELETE) they came from. The parser guarantees that no two action paths
 * overlap or conflict, so the actions touch disjoint parts of the item and their order does not
 * change the result.
 */
public record UpdateExpression(List<Action> actions) {
  public UpdateExpression {
    actions = List.copyOf(actions);
  }

  /**
   * The document paths the actions write, in action order. The engine checks them against the key
   * schema ("Cannot update attribute X. This attribute is part of the key") and uses them for
   * ReturnValues UPDATED_OLD and UPDATED_NEW.
   */
  public List<Path> paths() {
    List<Path> paths = new ArrayList<>(actions.size());
    for (Action action : actions) {
      paths.add(action.path());
    }
    return List.copyOf(paths);
  }

  /** One action of an update: the document path it writes, and what it writes there. */
  public sealed interface Action permits Set, Remove, Add, Delete {
    Path path();
  }

  /** {@code SET path = value}. */
  public record Set(Path path, SetValue value) implements Action {}

  /** {@code REMOVE path}: a top-level attribute, a map key or a list element. */
  public record Remove(Path path) implements Action {}

  /** {@code ADD path :value}: adds to a number or a set, creating it when missing. */
  public record Add(Path path, Operand.ValueOperand value) implements Action {}

  /** {@code DELETE path :value}: removes the value's elements from a set. */
  public record Delete(Path path, Operand.ValueOperand value) implements Action {}
}
