package io.stator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The packages of the core depend on each other in one direction only: no package reaches,
 * through any chain of references, back to itself. A cycle ties its packages into one unit that
 * can be neither understood nor changed apart. The JDK's {@code jdeps} lists the references
 * between the compiled classes' packages; this test looks for cycles among them and names the
 * references of each one it finds.
 */
class PackageCyclesTest {
  @Test
  void corePackagesFormNoCycle() {
    Map<String, Set<String>> uses = packageReferences(Path.of("target", "classes"));
    assertThat(uses).containsKeys("io.stator.api", "io.stator.engine");
    assertThat(uses.get("io.stator.api")).contains("io.stator.value");

    List<String> cycles = new ArrayList<>();
    for (Set<String> component : stronglyConnected(uses)) {
      if (component.size() > 1) {
        Set<String> references = new TreeSet<>();
        for (String from : component) {
          for (String to : uses.getOrDefault(from, Set.of())) {
            if (component.contains(to)) {
              references.add(from + " -> " + to);
            }
          }
        }
        cycles.add(String.join(", ", references));
      }
    }
    assertThat(cycles).as("package cycles, as their references").isEmpty();
  }

  /** Each package of the project and the other packages of the project it refers to. */
  private static Map<String, Set<String>> packageReferences(Path classes) {
    assertThat(Files.isDirectory(classes)).as(classes + " compiled").isTrue();
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = jdeps.run(new PrintWriter(out), new PrintWriter(err),
        "-verbose:package", "-filter:none", classes.toString());
    assertThat(status).as("jdeps: " + err).isZero();

    Map<String, Set<String>> uses = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      String[] words = line.trim().split("\\s+");
      if (words.length >= 3 && words[1].equals("->")
          && words[0].startsWith("io.stator") && words[2].startsWith("io.stator")
          && !words[0].equals(words[2])) {
        uses.computeIfAbsent(words[0], p -> new TreeSet<>()).add(words[2]);
      }
    }
    return uses;
  }

  /** Tarjan's strongly connected components of the reference graph. */
  private static List<Set<String>> stronglyConnected(Map<String, Set<String>> uses) {
    Set<String> nodes = new TreeSet<>(uses.keySet());
    uses.values().forEach(nodes::addAll);
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new HashSet<>();
    List<Set<String>> components = new ArrayList<>();
    for (String node : nodes) {
      if (!index.containsKey(node)) {
        visit(node, uses, index, low, stack, onStack, components);
      }
    }
    return components;
  }

  private static void visit(String node, Map<String, Set<String>> uses,
      Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
      Set<String> onStack, List<Set<String>> components) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (String next : uses.getOrDefault(node, Set.of())) {
      if (!index.containsKey(next)) {
        visit(next, uses, index, low, stack, onStack, components);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      Set<String> component = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        component.add(member);
      } while (!member.equals(node));
      components.add(component);
    }
  }
}
