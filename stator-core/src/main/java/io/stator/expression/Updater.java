package io.stator.expression;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.InvalidValueException;
import io.stator.value.Bytes;
import io.stator.value.Numbers;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies an UpdateExpression to an item with DynamoDB's semantics.
 *
 * <p>Every operand is read from the item as it was before the update: {@code SET a = b, b = a}
 * swaps. The parser has already rejected overlapping and conflicting paths, so the actions write
 * disjoint parts of the item, and a value an action reads at its own path (ADD, DELETE) is still
 * the old one when the action runs.
 *
 * <p>List indexes also refer to the old list: {@code REMOVE a[1], a[2]} removes the second and
 * third of the old elements, whatever the order; {@code SET a[5] = :v} on a shorter list appends
 * (several such appends keep the order of their indexes). To get this without index arithmetic,
 * the item is copied into a mutable tree only along the paths written; a list node keeps its old
 * elements in place, marks removed ones, collects appends aside, and is compacted when the tree
 * is turned back into values.
 *
 * <p>Errors, as DynamoDB reports them (a ValidationException without the "Invalid
 * UpdateExpression" prefix): first the SET values are evaluated (an operand path that does not
 * resolve: "The provided expression refers to an attribute that does not exist in the item"; a
 * number operator or list_append on another type: "An operand in the update expression has an
 * incorrect data type"), then each action in turn has its path checked (its parent must exist and be a map
 * for a key or a list for an index: "The document path provided in the update expression is
 * invalid for update") and ADD and DELETE check the type of the value they change.
 */
final class Updater {
  /** A list element removed by the update, dropped when the list is rebuilt. */
  private static final Object REMOVED = new Object();

  private Updater() {}

  static Map<String, AttributeValue> apply(UpdateExpression update, Map<String, AttributeValue> oldItem) {
    List<UpdateExpression.Action> actions = update.actions();
    AttributeValue[] values = new AttributeValue[actions.size()];
    for (int i = 0; i < values.length; i++) {
      if (actions.get(i) instanceof UpdateExpression.Set set) {
        values[i] = evaluate(set.value(), oldItem);
      }
    }
    MapNode root = new MapNode(oldItem);
    for (int i = 0; i < values.length; i++) {
      UpdateExpression.Action action = actions.get(i);
      List<Path.Element> elements = action.path().elements();
      Object parent = root;
      for (int e = 0; e < elements.size() - 1; e++) {
        parent = child(parent, elements.get(e));
      }
      Path.Element last = elements.get(elements.size() - 1);
      if (!(last instanceof Path.Name ? parent instanceof MapNode : parent instanceof ListNode)) {
        throw invalidPath();
      }
      Container container = (Container) parent;
      if (action instanceof UpdateExpression.Set) {
        container.put(last, values[i]);
      } else if (action instanceof UpdateExpression.Remove) {
        container.remove(last);
      } else if (action instanceof UpdateExpression.Add add) {
        container.put(last, add(container.get(last), add.value().value()));
      } else {
        AttributeValue rest =
            delete(container.get(last), ((UpdateExpression.Delete) action).value().value());
        if (rest == null) {
          container.remove(last);
        } else {
          container.put(last, rest);
        }
      }
    }
    return root.build();
  }

  /** The node at {@code element} under {@code parent}, made mutable; a missing one is an error. */
  private static Object child(Object parent, Path.Element element) {
    if (!(parent instanceof Container container)) {
      throw invalidPath();
    }
    boolean fits = element instanceof Path.Name
        ? container instanceof MapNode
        : container instanceof ListNode;
    Object node = fits ? container.node(element) : null;
    if (node == null) {
      throw invalidPath();
    }
    if (node instanceof AttributeValue.M m) {
      node = new MapNode(m.value());
      container.replace(element, node);
    } else if (node instanceof AttributeValue.L l) {
      node = new ListNode(l.value());
      container.replace(element, node);
    }
    return node;
  }

  // ---- SET values ----------------------------------------------------------------------------

  static AttributeValue evaluate(SetValue value, Map<String, AttributeValue> item) {
    if (value instanceof SetValue.Term term) {
      AttributeValue result = Evaluator.value(term.operand(), item);
      if (result == null) {
        throw DynamoDbException.validation(
            "The provided expression refers to an attribute that does not exist in the item");
      }
      return result;
    }
    if (value instanceof SetValue.Plus plus) {
      BigDecimal left = number(evaluate(plus.left(), item));
      return number(left.add(number(evaluate(plus.right(), item))));
    }
    if (value instanceof SetValue.Minus minus) {
      BigDecimal left = number(evaluate(minus.left(), item));
      return number(left.subtract(number(evaluate(minus.right(), item))));
    }
    if (value instanceof SetValue.IfNotExists ifNotExists) {
      AttributeValue existing = Evaluator.resolve(ifNotExists.path(), item);
      return existing != null ? existing : evaluate(ifNotExists.fallback(), item);
    }
    SetValue.ListAppend append = (SetValue.ListAppend) value;
    List<AttributeValue> first = list(evaluate(append.first(), item));
    List<AttributeValue> second = list(evaluate(append.second(), item));
    List<AttributeValue> joined = new ArrayList<>(first.size() + second.size());
    joined.addAll(first);
    joined.addAll(second);
    return new AttributeValue.L(joined);
  }

  private static BigDecimal number(AttributeValue value) {
    if (value instanceof AttributeValue.N n) {
      return n.decimal();
    }
    throw incorrectType();
  }

  /**
   * An exact result of DynamoDB's arithmetic ({@code +}, {@code -}, ADD): one that needs more
   * than 38 significant digits is refused rather than rounded, with the overflow error DynamoDB
   * is recorded to give for it (1E50 - 1 is "Number overflow"); a magnitude beyond the range of
   * numbers is an overflow or underflow error.
   */
  private static AttributeValue number(BigDecimal result) {
    try {
      if (result.signum() != 0 && result.stripTrailingZeros().precision() > 38) {
        throw Numbers.overflow();
      }
      return new AttributeValue.N(Numbers.toText(Numbers.check(result)));
    } catch (InvalidValueException e) {
      throw DynamoDbException.validation(e.getMessage());
    }
  }

  private static List<AttributeValue> list(AttributeValue value) {
    if (value instanceof AttributeValue.L l) {
      return l.value();
    }
    throw incorrectType();
  }

  // ---- ADD and DELETE ------------------------------------------------------------------------

  /** ADD: a missing number counts as 0, a missing set as empty; the types must match. */
  private static AttributeValue add(AttributeValue existing, AttributeValue operand) {
    if (operand instanceof AttributeValue.N n) {
      if (existing == null) {
        return number(n.decimal());
      }
      return number(number(existing).add(n.decimal()));
    }
    if (!isSet(operand) || (existing != null && !existing.type().equals(operand.type()))) {
      throw incorrectType();
    }
    if (existing == null) {
      return operand;
    }
    if (operand instanceof AttributeValue.SS ss) {
      LinkedHashSet<String> union = new LinkedHashSet<>(((AttributeValue.SS) existing).value());
      union.addAll(ss.value());
      return new AttributeValue.SS(union);
    }
    if (operand instanceof AttributeValue.NS ns) {
      LinkedHashSet<String> union = new LinkedHashSet<>(((AttributeValue.NS) existing).value());
      union.addAll(ns.value());
      return new AttributeValue.NS(union);
    }
    LinkedHashSet<Bytes> union = new LinkedHashSet<>(((AttributeValue.BS) existing).value());
    union.addAll(((AttributeValue.BS) operand).value());
    return new AttributeValue.BS(union);
  }

  /**
   * DELETE: removes the operand's elements from a set of the same type; a missing attribute is
   * left missing. Returns null when nothing is left: DynamoDB has no empty sets, so the attribute
   * disappears.
   */
  private static AttributeValue delete(AttributeValue existing, AttributeValue operand) {
    if (!isSet(operand) || (existing != null && !existing.type().equals(operand.type()))) {
      throw incorrectType();
    }
    if (existing == null) {
      return null;
    }
    if (existing instanceof AttributeValue.SS ss) {
      LinkedHashSet<String> rest = new LinkedHashSet<>(ss.value());
      rest.removeAll(((AttributeValue.SS) operand).value());
      return rest.isEmpty() ? null : new AttributeValue.SS(rest);
    }
    if (existing instanceof AttributeValue.NS ns) {
      // Members are normalised numbers, so equal numbers have equal text.
      LinkedHashSet<String> rest = new LinkedHashSet<>(ns.value());
      rest.removeAll(((AttributeValue.NS) operand).value());
      return rest.isEmpty() ? null : new AttributeValue.NS(rest);
    }
    LinkedHashSet<Bytes> rest = new LinkedHashSet<>(((AttributeValue.BS) existing).value());
    rest.removeAll(((AttributeValue.BS) operand).value());
    return rest.isEmpty() ? null : new AttributeValue.BS(rest);
  }

  private static boolean isSet(AttributeValue value) {
    return value instanceof AttributeValue.SS
        || value instanceof AttributeValue.NS
        || value instanceof AttributeValue.BS;
  }

  private static DynamoDbException incorrectType() {
    return DynamoDbException.validation(
        "An operand in the update expression has an incorrect data type");
  }

  private static DynamoDbException invalidPath() {
    return DynamoDbException.validation(
        "The document path provided in the update expression is invalid for update");
  }

  // ---- the mutable tree ----------------------------------------------------------------------

  /**
   * A map or list being updated. Its entries are AttributeValues (untouched) or nested
   * containers (on a written path).
   */
  private sealed interface Container permits MapNode, ListNode {
    /** The entry at the element, a value or a container; null when absent. */
    Object node(Path.Element element);

    void replace(Path.Element element, Object node);

    /** The value at the element, as it was before the update (it is never a container here). */
    default AttributeValue get(Path.Element element) {
      Object node = node(element);
      return node instanceof AttributeValue value ? value : null;
    }

    void put(Path.Element element, AttributeValue value);

    void remove(Path.Element element);

    AttributeValue toValue();
  }

  private static final class MapNode implements Container {
    private final LinkedHashMap<String, Object> entries;

    MapNode(Map<String, AttributeValue> map) {
      entries = new LinkedHashMap<>(map);
    }

    @Override
    public Object node(Path.Element element) {
      return entries.get(((Path.Name) element).name());
    }

    @Override
    public void replace(Path.Element element, Object node) {
      entries.put(((Path.Name) element).name(), node);
    }

    @Override
    public void put(Path.Element element, AttributeValue value) {
      entries.put(((Path.Name) element).name(), value);
    }

    @Override
    public void remove(Path.Element element) {
      entries.remove(((Path.Name) element).name());
    }

    Map<String, AttributeValue> build() {
      Map<String, AttributeValue> map = new LinkedHashMap<>(entries.size() * 2);
      entries.forEach((name, node) -> map.put(name, built(node)));
      return map;
    }

    @Override
    public AttributeValue toValue() {
      return new AttributeValue.M(build());
    }
  }

  private static final class ListNode implements Container {
    private final ArrayList<Object> elements;
    /** Values set at indexes past the old end, appended in index order. */
    private final TreeMap<Integer, AttributeValue> appends = new TreeMap<>();

    ListNode(List<AttributeValue> list) {
      elements = new ArrayList<>(list);
    }

    @Override
    public Object node(Path.Element element) {
      int index = ((Path.Index) element).index();
      if (index < elements.size()) {
        Object node = elements.get(index);
        return node == REMOVED ? null : node;
      }
      // Only old elements are visible: every index refers to the list before the update.
      return null;
    }

    @Override
    public void replace(Path.Element element, Object node) {
      elements.set(((Path.Index) element).index(), node);
    }

    @Override
    public void put(Path.Element element, AttributeValue value) {
      int index = ((Path.Index) element).index();
      if (index < elements.size()) {
        elements.set(index, value);
      } else {
        appends.put(index, value);
      }
    }

    /** Removing an index past the end of the list does nothing, as in DynamoDB. */
    @Override
    public void remove(Path.Element element) {
      int index = ((Path.Index) element).index();
      if (index < elements.size()) {
        elements.set(index, REMOVED);
      } else {
        appends.remove(index);
      }
    }

    @Override
    public AttributeValue toValue() {
      List<AttributeValue> list = new ArrayList<>(elements.size() + appends.size());
      for (Object node : elements) {
        if (node != REMOVED) {
          list.add(built(node));
        }
      }
      list.addAll(appends.values());
      return new AttributeValue.L(list);
    }
  }

  private static AttributeValue built(Object node) {
    return node instanceof Container container ? container.toValue() : (AttributeValue) node;
  }
}
