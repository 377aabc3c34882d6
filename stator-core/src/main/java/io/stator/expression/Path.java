package io.stator.expression;

import java.util.List;

/**
 * A document path such as {@code a.b[2].c}: a top-level attribute name followed by map keys and
 * list indexes. Names are already resolved (no {@code #placeholders} left).
 */
public record Path(List<Element> elements) {
  public Path {
    elements = List.copyOf(elements);
    if (elements.isEmpty() || !(elements.get(0) instanceof Name)) {
      throw new IllegalArgumentException("a path starts with an attribute name");
    }
  }

  public static Path of(String attribute) {
    return new Path(List.of(new Name(attribute)));
  }

  /** The top-level attribute the path starts at. */
  public String attribute() {
    return ((Name) elements.get(0)).name();
  }

  /** True when the path is one top-level attribute name. */
  public boolean isTopLevel() {
    return elements.size() == 1;
  }

  public sealed interface Element permits Name, Index {}

  /** A map key (or the top-level attribute name). */
  public record Name(String name) implements Element {}

  /** A list index, {@code [n]}. */
  public record Index(int index) implements Element {}

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Element e : elements) {
      if (e instanceof Name n) {
        if (!sb.isEmpty()) {
          sb.append('.');
        }
        sb.append(n.name());
      } else {
        sb.append('[').append(((Index) e).index()).append(']');
      }
    }
    return sb.toString();
  }
}
