package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * Random sequences of update expressions applied to random items, compared after every step with
 * a small reference model. The model is written differently from the engine: it first checks
 * every action against the old item, then writes everything but removals, then removes list
 * elements from the highest index down (so lower positions stay valid) and finally appends
 * out-of-range SETs in index order. An update that fails must fail in both with the same message
 * and leave the item unchanged. jqwik prints the seed of any failure.
 */
class UpdatePropertyTest {
  private static final String MISSING =
      "The provided expression refers to an attribute that does not exist in the item";
  private static final String INCORRECT_TYPE =
      "An operand in the update expression has an incorrect data type";
  private static final String INVALID_PATH =
      "The document path provided in the update expression is invalid for update";

  private static final String[] NAMES = {"a", "b", "c", "d", "e"};
  private static final String[] KEYS = {"p", "q", "r"};
  private static final Map<String, AttributeValue> VALUES = new LinkedHashMap<>();

  static {
    VALUES.put(":n1", AttributeValue.n("1"));
    VALUES.put(":n7", AttributeValue.n("-7.5"));
    VALUES.put(":s", AttributeValue.s("v"));
    VALUES.put(":ns12", AttributeValue.ns(List.of("1", "2")));
    VALUES.put(":ns3", AttributeValue.ns(List.of("3")));
    VALUES.put(":ssx", AttributeValue.ss(List.of("x")));
    VALUES.put(":ssyz", AttributeValue.ss(List.of("y", "z")));
    VALUES.put(":l", AttributeValue.l(List.of(AttributeValue.n("9"))));
    VALUES.put(":empty", AttributeValue.l(List.of()));
    VALUES.put(":m", AttributeValue.m(Map.of("p", AttributeValue.n("4"))));
  }

  private static final String[] ANY_VALUE = VALUES.keySet().toArray(new String[0]);
  private static final String[] ADD_VALUES = {":n1", ":n7", ":ns12", ":ns3", ":ssx", ":ssyz"};
  private static final String[] DELETE_VALUES = {":ns12", ":ns3", ":ssx", ":ssyz"};

  @Property(tries = 500)
  void updateSequencesAgreeWithTheReferenceModel(@ForAll long seed) {
    Random random = new Random(seed);
    Map<String, AttributeValue> item = randomItem(random);
    for (int step = 0; step < 8; step++) {
      String text = randomUpdate(random, item);
      UpdateExpression update = Expressions.parseUpdate(text, new ExpressionContext(null, VALUES));
      Map<String, AttributeValue> expected;
      String expectedError = null;
      try {
        expected = Model.apply(update, item);
      } catch (ModelError e) {
        expected = item;
        expectedError = e.getMessage();
      }
      Map<String, AttributeValue> actual;
      String actualError = null;
      try {
        actual = Expressions.applyUpdate(update, item);
      } catch (DynamoDbException e) {
        actual = item;
        actualError = e.getMessage();
      }
      Statistics.collect(expectedError == null ? "applied" : expectedError);
      String context = "update: " + text + "\nitem: " + item;
      assertThat(actualError).as(context).isEqualTo(expectedError);
      assertThat(actual).as(context).isEqualTo(expected);
      item = actual;
    }
  }

  // ---- generators ----------------------------------------------------------------------------

  static Map<String, AttributeValue> randomItem(Random random) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    for (String name : NAMES) {
      if (random.nextInt(10) < 7) {
        item.put(name, randomValue(random, 2));
      }
    }
    return item;
  }

  static AttributeValue randomValue(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 7 : 4);
    return switch (kind) {
      case 0 -> AttributeValue.n(Integer.toString(random.nextInt(21) - 10));
      case 1 -> AttributeValue.s(random.nextBoolean() ? "s" : "t");
      case 2 -> random.nextBoolean()
          ? AttributeValue.ns(List.of("1", "3"))
          : AttributeValue.ns(List.of("2"));
      case 3 -> random.nextBoolean()
          ? AttributeValue.ss(List.of("x", "y"))
          : AttributeValue.ss(List.of("z"));
      case 4, 5 -> {
        List<AttributeValue> list = new ArrayList<>();
        int size = random.nextInt(5);
        for (int i = 0; i < size; i++) {
          list.add(randomValue(random, depth - 1));
        }
        yield AttributeValue.l(list);
      }
      default -> {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        for (String key : KEYS) {
          if (random.nextBoolean()) {
            map.put(key, randomValue(random, depth - 1));
          }
        }
        yield AttributeValue.m(map);
      }
    };
  }

  private static <T> T pick(Random random, T[] options) {
    return options[random.nextInt(options.length)];
  }

  /** A path to read: any attribute, possibly one level down. */
  static String readPath(Random random) {
    String name = pick(random, NAMES);
    return switch (random.nextInt(4)) {
      case 0 -> name + "." + pick(random, KEYS);
      case 1 -> name + "[" + random.nextInt(4) + "]";
      default -> name;
    };
  }

  static String randomSetValue(Random random, String target) {
    return switch (random.nextInt(12)) {
      case 0, 1, 9, 10, 11 -> pick(random, ANY_VALUE);
      case 2 -> readPath(random);
      case 3 -> readPath(random) + " + " + pick(random, new String[] {":n1", ":n7"});
      case 4 -> ":n1 - " + readPath(random);
      case 5 -> "if_not_exists(" + target + ", " + pick(random, ANY_VALUE) + ")";
      case 6 -> "if_not_exists(" + readPath(random) + ", :n1) + " + readPath(random);
      case 7 -> "list_append(" + readPath(random) + ", :l)";
      default -> "list_append(:l, if_not_exists(" + target + ", :empty))";
    };
  }

  /** Actions on disjoint paths, rendered into clauses in a random order. */
  static String randomUpdate(Random random, Map<String, AttributeValue> item) {
    Map<String, List<String>> clauses = new LinkedHashMap<>();
    for (String clause : new String[] {"SET", "REMOVE", "ADD", "DELETE"}) {
      clauses.put(clause, new ArrayList<>());
    }
    List<String> names = new ArrayList<>(List.of(NAMES));
    Collections.shuffle(names, random);
    int count = 1 + random.nextInt(3);
    for (String name : names.subList(0, count)) {
      if (random.nextInt(10) < 6) {
        addAction(random, clauses, name, true, item);
      } else if (item.get(name) instanceof AttributeValue.L
          || (!(item.get(name) instanceof AttributeValue.M) && random.nextBoolean())) {
        List<Integer> indexes = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
        Collections.shuffle(indexes, random);
        for (int index : indexes.subList(0, 1 + random.nextInt(3))) {
          addAction(random, clauses, name + "[" + index + "]", false, item);
        }
      } else {
        List<String> keys = new ArrayList<>(List.of(KEYS));
        Collections.shuffle(keys, random);
        for (String key : keys.subList(0, 1 + random.nextInt(3))) {
          addAction(random, clauses, name + "." + key, false, item);
        }
      }
    }
    List<String> order = new ArrayList<>(clauses.keySet());
    Collections.shuffle(order, random);
    StringBuilder text = new StringBuilder();
    for (String clause : order) {
      List<String> actions = clauses.get(clause);
      if (!actions.isEmpty()) {
        text.append(text.isEmpty() ? "" : " ").append(clause).append(' ')
            .append(String.join(", ", actions));
      }
    }
    return text.toString();
  }

  private static void addAction(
      Random random,
      Map<String, List<String>> clauses,
      String path,
      boolean topLevel,
      Map<String, AttributeValue> item) {
    // Mostly pick ADD and DELETE operands of the type already there, so that most updates apply.
    AttributeValue existing =
        Model.read(item, Expressions.parseProjection(path, ExpressionContext.empty()).get(0)
            .elements());
    String type = existing == null ? "" : existing.type();
    boolean matching = random.nextInt(4) > 0;
    switch (random.nextInt(topLevel ? 5 : 4)) {
      case 0, 1 -> clauses.get("SET").add(path + " = " + randomSetValue(random, path));
      case 2 -> clauses.get("REMOVE").add(path);
      case 3 -> clauses.get("ADD").add(path + " " + (matching && type.equals("N") ? ":n7"
          : matching && type.equals("NS") ? ":ns12"
          : matching && type.equals("SS") ? ":ssyz"
          : pick(random, ADD_VALUES)));
      default -> clauses.get("DELETE").add(path + " " + (matching && type.equals("NS") ? ":ns3"
          : matching && type.equals("SS") ? ":ssx"
          : pick(random, DELETE_VALUES)));
    }
    if (!topLevel && random.nextInt(8) == 0) {
      clauses.get("DELETE").add(path.replace('.', '_').replace("[", "_").replace("]", "")
          + " " + pick(random, DELETE_VALUES));
    }
  }

  // ---- the reference model -------------------------------------------------------------------

  static final class ModelError extends Exception {
    ModelError(String message) {
      super(message);
    }
  }

  static final class Model {
    /** A plain mutable tree: LinkedHashMap for M, ArrayList for L, AttributeValue otherwise. */
    static Object thaw(AttributeValue value) {
      if (value instanceof AttributeValue.M m) {
        Map<String, Object> map = new LinkedHashMap<>();
        m.value().forEach((k, v) -> map.put(k, thaw(v)));
        return map;
      }
      if (value instanceof AttributeValue.L l) {
        List<Object> list = new ArrayList<>();
        l.value().forEach(v -> list.add(thaw(v)));
        return list;
      }
      return value;
    }

    @SuppressWarnings("unchecked")
    static AttributeValue freeze(Object node) {
      if (node instanceof Map<?, ?> map) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        ((Map<String, Object>) map).forEach((k, v) -> m.put(k, freeze(v)));
        return AttributeValue.m(m);
      }
      if (node instanceof List<?> list) {
        List<AttributeValue> l = new ArrayList<>();
        list.forEach(v -> l.add(freeze(v)));
        return AttributeValue.l(l);
      }
      return (AttributeValue) node;
    }

    static AttributeValue read(Map<String, AttributeValue> item, List<Path.Element> elements) {
      AttributeValue current = AttributeValue.m(item);
      for (Path.Element element : elements) {
        if (element instanceof Path.Name name && current instanceof AttributeValue.M m) {
          current = m.value().get(name.name());
        } else if (element instanceof Path.Index index && current instanceof AttributeValue.L l
            && index.index() < l.value().size()) {
          current = l.value().get(index.index());
        } else {
          return null;
        }
        if (current == null) {
          return null;
        }
      }
      return current;
    }

    static AttributeValue eval(SetValue value, Map<String, AttributeValue> item)
        throws ModelError {
      if (value instanceof SetValue.Term term) {
        AttributeValue result = term.operand() instanceof Operand.ValueOperand v
            ? v.value()
            : read(item, ((Operand.PathOperand) term.operand()).path().elements());
        if (result == null) {
          throw new ModelError(MISSING);
        }
        return result;
      }
      if (value instanceof SetValue.Plus p) {
        BigDecimal left = decimal(eval(p.left(), item));
        return number(left.add(decimal(eval(p.right(), item))));
      }
      if (value instanceof SetValue.Minus m) {
        BigDecimal left = decimal(eval(m.left(), item));
        return number(left.subtract(decimal(eval(m.right(), item))));
      }
      if (value instanceof SetValue.IfNotExists f) {
        AttributeValue existing = read(item, f.path().elements());
        return existing != null ? existing : eval(f.fallback(), item);
      }
      SetValue.ListAppend a = (SetValue.ListAppend) value;
      AttributeValue first = eval(a.first(), item);
      if (!(first instanceof AttributeValue.L)) {
        throw new ModelError(INCORRECT_TYPE);
      }
      AttributeValue second = eval(a.second(), item);
      if (!(second instanceof AttributeValue.L)) {
        throw new ModelError(INCORRECT_TYPE);
      }
      List<AttributeValue> joined = new ArrayList<>(((AttributeValue.L) first).value());
      joined.addAll(((AttributeValue.L) second).value());
      return AttributeValue.l(joined);
    }

    static BigDecimal decimal(AttributeValue value) throws ModelError {
      if (value instanceof AttributeValue.N n) {
        return new BigDecimal(n.value());
      }
      throw new ModelError(INCORRECT_TYPE);
    }

    static AttributeValue number(BigDecimal value) {
      return AttributeValue.n(value.toPlainString());
    }

    /** Set members as a set of strings, whatever the set type (this test uses SS and NS). */
    static Set<String> members(AttributeValue value) {
      if (value instanceof AttributeValue.SS ss) {
        return ss.value();
      }
      return ((AttributeValue.NS) value).value();
    }

    static AttributeValue set(String type, Set<String> members) {
      return type.equals("SS") ? AttributeValue.ss(members) : AttributeValue.ns(members);
    }

    static Map<String, AttributeValue> apply(UpdateExpression update, Map<String, AttributeValue> old)
        throws ModelError {
      List<UpdateExpression.Action> actions = update.actions();
      Map<UpdateExpression.Action, AttributeValue> written = new LinkedHashMap<>();
      List<UpdateExpression.Action> removals = new ArrayList<>();
      for (UpdateExpression.Action action : actions) {
        if (action instanceof UpdateExpression.Set set) {
          written.put(action, eval(set.value(), old));
        }
      }
      // Check every action against the old item, in order, and work out what it writes.
      for (UpdateExpression.Action action : actions) {
        List<Path.Element> elements = action.path().elements();
        Path.Element last = elements.get(elements.size() - 1);
        AttributeValue parent = read(old, elements.subList(0, elements.size() - 1));
        boolean parentFits = last instanceof Path.Name
            ? parent instanceof AttributeValue.M
            : parent instanceof AttributeValue.L;
        if (!parentFits) {
          throw new ModelError(INVALID_PATH);
        }
        AttributeValue existing = read(old, elements);
        if (action instanceof UpdateExpression.Remove) {
          removals.add(action);
        } else if (action instanceof UpdateExpression.Add add) {
          AttributeValue operand = add.value().value();
          if (operand instanceof AttributeValue.N n) {
            BigDecimal base = existing == null ? BigDecimal.ZERO : decimal(existing);
            written.put(action, number(base.add(new BigDecimal(n.value()))));
          } else {
            if (existing != null && !existing.type().equals(operand.type())) {
              throw new ModelError(INCORRECT_TYPE);
            }
            Set<String> union = new LinkedHashSet<>();
            if (existing != null) {
              union.addAll(members(existing));
            }
            union.addAll(members(operand));
            written.put(action, set(operand.type(), union));
          }
        } else if (action instanceof UpdateExpression.Delete delete) {
          AttributeValue operand = delete.value().value();
          if (existing == null) {
            continue;
          }
          if (!existing.type().equals(operand.type())) {
            throw new ModelError(INCORRECT_TYPE);
          }
          Set<String> rest = new LinkedHashSet<>(members(existing));
          rest.removeAll(members(operand));
          if (rest.isEmpty()) {
            removals.add(action);
          } else {
            written.put(action, set(operand.type(), rest));
          }
        }
      }
      // Write, then remove list elements highest index first, then append.
      @SuppressWarnings("unchecked")
      Map<String, Object> root = (Map<String, Object>) thaw(AttributeValue.m(old));
      Map<List<Object>, TreeMap<Integer, AttributeValue>> appends = new IdentityHashMap<>();
      for (Map.Entry<UpdateExpression.Action, AttributeValue> entry : written.entrySet()) {
        List<Path.Element> elements = entry.getKey().path().elements();
        Object parent = descend(root, elements.subList(0, elements.size() - 1));
        Path.Element last = elements.get(elements.size() - 1);
        if (last instanceof Path.Name name) {
          asMap(parent).put(name.name(), thaw(entry.getValue()));
        } else {
          int index = ((Path.Index) last).index();
          List<Object> list = asList(parent);
          if (index < list.size()) {
            list.set(index, thaw(entry.getValue()));
          } else {
            appends.computeIfAbsent(list, l -> new TreeMap<>()).put(index, entry.getValue());
          }
        }
      }
      List<Object[]> listRemovals = new ArrayList<>();
      for (UpdateExpression.Action action : removals) {
        List<Path.Element> elements = action.path().elements();
        Object parent = descend(root, elements.subList(0, elements.size() - 1));
        Path.Element last = elements.get(elements.size() - 1);
        if (last instanceof Path.Name name) {
          asMap(parent).remove(name.name());
        } else {
          listRemovals.add(new Object[] {parent, ((Path.Index) last).index()});
        }
      }
      listRemovals.sort(Comparator.comparing((Object[] r) -> -(Integer) r[1]));
      for (Object[] removal : listRemovals) {
        List<Object> list = asList(removal[0]);
        int index = (Integer) removal[1];
        if (index < list.size()) {
          list.remove(index);
        }
      }
      appends.forEach((list, values) -> values.values().forEach(v -> list.add(thaw(v))));
      return ((AttributeValue.M) freeze(root)).value();
    }

    static Object descend(Object node, List<Path.Element> elements) {
      for (Path.Element element : elements) {
        node = element instanceof Path.Name name
            ? asMap(node).get(name.name())
            : asList(node).get(((Path.Index) element).index());
      }
      return node;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object node) {
      return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    static List<Object> asList(Object node) {
      return (List<Object>) node;
    }
  }
}
