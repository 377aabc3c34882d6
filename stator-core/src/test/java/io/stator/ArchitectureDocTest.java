package io.stator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/architecture.md} names the project's classes so that a reader can find them; a name
 * that a rename left behind sends the reader nowhere. This test reads the document and the
 * sources of every module and fails on each class, or class and member, that the document names
 * and the sources do not have.
 *
 * <p>What counts as naming a class: a span in backticks that reads as a Java name ({@code
 * Tables}, {@code Tables.failure}, {@code engine.Tagging}, {@code Stator.open(storage)}), a
 * package-qualified name anywhere ({@code wire.Requests}), and the first word of a line of the
 * package map (the indented block that lists packages and their classes), looked for in the
 * package of the line above it that names one.
 */
class ArchitectureDocTest {
  /**
   * Names in backticks that are not the project's classes: DynamoDB's error types and HTTP header
   * as they appear on the wire, and a library's class.
   */
  private static final Set<String> NOT_OURS =
      Set.of("Host", "InternalServerError", "SerializationException", "WriteBatch");

  private static final Pattern BACKTICKS = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern JAVA_NAME = Pattern.compile(
      "((?:[a-z]+\\.)*)([A-Z][A-Za-z0-9]*)(?:\\.([A-Za-z_][A-Za-z0-9_]*))?(?:\\(.*\\))?");
  private static final Pattern QUALIFIED =
      Pattern.compile("\\b((?:[a-z]+\\.)+)([A-Z][A-Za-z0-9]*)(?:\\.([a-z][A-Za-z0-9_]*))?");
  /**
   * A line of the package map that names a package, and one that names a class: of the package
   * above it when deeper, of any package when level with the packages.
   */
  private static final Pattern MAP_PACKAGE = Pattern.compile("^ {6}([a-z]+)[. ]");
  private static final Pattern MAP_CLASS = Pattern.compile("^ {6}( {2})?([A-Z][A-Za-z0-9]*)[ ,]");
  private static final Pattern TYPE_DECLARATION = Pattern.compile(
      "\\b(?:class|interface|record|enum|@interface)\\s+([A-Z][A-Za-z0-9]*)");

  @Test
  void everyClassTheArchitectureNamesExists() throws IOException {
    Path root = projectRoot();
    Map<String, List<Path>> types = declaredTypes(root);
    List<String> missing = new ArrayList<>();
    for (Reference reference : references(Files.readString(root.resolve("docs/architecture.md")))) {
      List<Path> files = types.getOrDefault(reference.type(), List.of()).stream()
          .filter(file -> reference.inPackage(file))
          .toList();
      if (files.isEmpty()) {
        missing.add(reference.text() + " (no class " + reference.type()
            + (reference.pkg().isEmpty() ? "" : " in a package " + reference.pkg()) + ")");
      } else if (reference.member() != null && files.stream()
          .noneMatch(file -> declares(file, reference.member()))) {
        missing.add(reference.text() + " (" + reference.type() + " has no " + reference.member()
            + ")");
      }
    }
    assertThat(missing).as("names in docs/architecture.md that the sources do not have").isEmpty();
  }

  /**
   * A class the document names: its package as far as the document gives it ("" for none,
   * "engine" for {@code engine.Tagging}), the class, and a member or null.
   */
  private record Reference(String text, String pkg, String type, String member) {
    boolean inPackage(Path file) {
      String dir = file.getParent().toString().replace('\\', '/') + "/";
      return dir.endsWith("/" + pkg.replace('.', '/') + (pkg.isEmpty() ? "" : "/"));
    }
  }

  private static Set<Reference> references(String document) {
    Set<Reference> references = new LinkedHashSet<>();
    Matcher spans = BACKTICKS.matcher(document);
    while (spans.find()) {
      Matcher name = JAVA_NAME.matcher(spans.group(1));
      if (name.matches() && !NOT_OURS.contains(name.group(2))) {
        references.add(reference(spans.group(1), name));
      }
    }
    Matcher qualified = QUALIFIED.matcher(document);
    while (qualified.find()) {
      references.add(reference(qualified.group(), qualified));
    }
    String pkg = "";
    for (String line : document.split("\n")) {
      Matcher packageLine = MAP_PACKAGE.matcher(line);
      Matcher classLine = MAP_CLASS.matcher(line);
      if (packageLine.find()) {
        pkg = packageLine.group(1);
      } else if (classLine.find()) {
        String in = classLine.group(1) == null ? "" : pkg;
        references.add(new Reference(classLine.group(2), in, classLine.group(2), null));
      }
    }
    return references;
  }

  private static Reference reference(String text, Matcher name) {
    String pkg = name.group(1).isEmpty() ? "" : name.group(1).substring(0, name.group(1).length() - 1);
    return new Reference(text, pkg, name.group(2), name.group(3));
  }

  private static Map<String, List<Path>> declaredTypes(Path root) throws IOException {
    Map<String, List<Path>> types = new HashMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(file -> file.toString().endsWith(".java"))
          .filter(file -> file.toString().contains("/src/"))
          .filter(file -> !file.toString().contains("/target/"))
          .forEach(file -> {
            Matcher declaration = TYPE_DECLARATION.matcher(read(file));
            while (declaration.find()) {
              types.computeIfAbsent(declaration.group(1), name -> new ArrayList<>()).add(file);
            }
          });
    }
    return types;
  }

  private static boolean declares(Path file, String member) {
    return Pattern.compile("\\b" + Pattern.quote(member) + "\\b").matcher(read(file)).find();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The directory holding docs/, found from the module's directory the build runs tests in. */
  private static Path projectRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("docs/architecture.md"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("a directory above the module with docs/architecture.md").isNotNull();
    return dir;
  }
}
