package io.stator.expression;

import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies a ProjectionExpression to an item, in DynamoDB's shape: a nested map keeps only the
 * selected keys; selected list elements come back as a list of just those elements, in index
 * order (so {@code a[5]} alone yields a one-element list); a path that does not resolve is
 * omitted, and so is any map or list that would be left empty by that.
 */
final class Projector {
  private Projector() {}

  static Map<String, AttributeValue> project(Map<String, AttributeValue> item, List<Path> paths) {
    Map<String, Object> tree = new LinkedHashMap<>();
    for (Path path : paths) {
      if (Evaluator.resolve(path, item) != null) {
        insert(tree, path, item);
      }
    }
    Map<String, AttributeValue> result = new LinkedHashMap<>();
    tree.forEach((name, node) -> result.put(name, build(node)));
    return result;
  }

  /**
   * Adds a resolving path to the tree. Nodes are: an AttributeValue (a whole selected value), a
   * {@code LinkedHashMap<String, Object>} (map keys) or a {@code TreeMap<Integer, Object>} (list
   * indexes). A whole value already selected absorbs any deeper selection under it.
   */
  @SuppressWarnings("unchecked")
  private static void insert(Map<String, Object> tree, Path path, Map<String, AttributeValue> item) {
    List<Path.Element> elements = path.elements();
    AttributeValue source = item.get(path.attribute());
    Object parent = tree;
    Object key = path.attribute();
    for (int i = 1; i < elements.size(); i++) {
      Path.Element element = elements.get(i);
      Object existing = get(parent, key);
      if (existing instanceof AttributeValue) {
        return;
      }
      Object node = existing;
      if (element instanceof Path.Name name) {
        if (node == null) {
          node = new LinkedHashMap<String, Object>();
          put(parent, key, node);
        }
        source = ((AttributeValue.M) source).value().get(name.name());
        key = name.name();
      } else {
        int index = ((Path.Index) element).index();
        if (node == null) {
          node = new TreeMap<Integer, Object>();
          put(parent, key, node);
        }
        source = ((AttributeValue.L) source).value().get(index);
        key = index;
      }
      parent = node;
    }
    put(parent, key, source);
  }

  @SuppressWarnings("unchecked")
  private static Object get(Object node, Object key) {
    return ((Map<Object, Object>) node).get(key);
  }

  @SuppressWarnings("unchecked")
  private static void put(Object node, Object key, Object value) {
    ((Map<Object, Object>) node).put(key, value);
  }

  @SuppressWarnings("unchecked")
  private static AttributeValue build(Object node) {
    if (node instanceof AttributeValue value) {
      return value;
    }
    if (node instanceof TreeMap<?, ?> list) {
      List<AttributeValue> elements = new ArrayList<>(list.size());
      for (Object element : list.values()) {
        elements.add(build(element));
      }
      return new AttributeValue.L(elements);
    }
    Map<String, AttributeValue> map = new LinkedHashMap<>();
    ((Map<String, Object>) node).forEach((name, child) -> map.put(name, build(child)));
    return new AttributeValue.M(map);
  }
}
