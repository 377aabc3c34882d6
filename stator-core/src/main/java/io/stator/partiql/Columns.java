package io.stator.partiql;

import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of a SELECT's answer. DynamoDB answers a projected document path not in the item's
 * shape but as a column of its own, named by the path's last name and the list indexes after it,
 * with the value found there: {@code SELECT m.k[0]} answers {@code {"k[0]": ...}} and {@code
 * SELECT l[0]} {@code {"l[0]": ...}} (recorded from DynamoDB). A path the item lacks is no column.
 * Top-level names are columns of their own name, so a projection of them alone, or none, answers
 * the items as read.
 */
final class Columns {
  private Columns() {}

  static List<Map<String, AttributeValue>> of(
      Statement.Select select, List<Map<String, AttributeValue>> items) {
    if (!reshapes(select)) {
      return items;
    }
    List<Map<String, AttributeValue>> out = new ArrayList<>(items.size());
    items.forEach(item -> out.add(of(select, item)));
    return out;
  }

  static Map<String, AttributeValue> of(Statement.Select select, Map<String, AttributeValue> item) {
    if (item == null || !reshapes(select)) {
      return item;
    }
    Map<String, AttributeValue> columns = new LinkedHashMap<>();
    for (Term.PathTerm path : select.projection()) {
      AttributeValue value = find(item, path.elements());
      if (value != null) {
        columns.put(name(path.elements()), value);
      }
    }
    return columns;
  }

  /** Whether the answer's columns differ from the items' attributes: a path below the top. */
  static boolean reshapes(Statement.Select select) {
    return select.projection() != null
        && select.projection().stream().anyMatch(path -> !path.isTopLevel());
  }

  /** The path's last name and the indexes after it: {@code k[0]} for {@code m.k[0]}. */
  private static String name(List<Object> elements) {
    int last = 0;
    for (int i = 0; i < elements.size(); i++) {
      if (elements.get(i) instanceof String) {
        last = i;
      }
    }
    StringBuilder name = new StringBuilder((String) elements.get(last));
    for (Object index : elements.subList(last + 1, elements.size())) {
      name.append('[').append(index).append(']');
    }
    return name.toString();
  }

  private static AttributeValue find(Map<String, AttributeValue> item, List<Object> elements) {
    AttributeValue value = item.get((String) elements.get(0));
    for (Object element : elements.subList(1, elements.size())) {
      if (element instanceof String name && value instanceof AttributeValue.M map) {
        value = map.value().get(name);
      } else if (element instanceof Integer index && value instanceof AttributeValue.L list
          && index < list.value().size()) {
        value = list.value().get(index);
      } else {
        return null;
      }
    }
    return value;
  }
}
