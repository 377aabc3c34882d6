package io.stator.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java examples compile against the published jars as a user's code would (with
 * the imports an IDE adds), so the README cannot name a class, method or option that is gone;
 * the embedding example runs too.
 */
class ReadmeExampleTest {
  private static final String JUNIT_IMPORTS = String.join("\n",
      "import io.stator.junit.EmbeddedStator;",
      "import io.stator.junit.StatorTest;",
      "import org.junit.jupiter.api.Test;",
      "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;",
      "import software.amazon.awssdk.services.dynamodb.model.*;",
      "");

  private static final String EMBEDDING_IMPORTS = String.join("\n",
      "import io.stator.Stator;",
      "import io.stator.api.*;",
      "import io.stator.value.AttributeValue;",
      "import java.util.List;",
      "import java.util.Map;",
      "");

  @Test
  void theJunitExampleCompiles(@TempDir Path out) throws IOException {
    String source = JUNIT_IMPORTS + block("(@StatorTest.*?)");
    String className = Pattern.compile("class (\\w+)").matcher(source).results()
        .findFirst().orElseThrow().group(1);
    compile(className, source, out);
  }

  @Test
  void theEmbeddingExampleCompilesAndRuns(@TempDir Path out) throws Exception {
    String source = EMBEDDING_IMPORTS + "public class EmbeddingExample {\n"
        + "  public static void main(String[] args) {\n"
        + block("(try \\(Database db = Stator\\.inMemory\\(\\)\\).*?)") + "  }\n}\n";
    compile("EmbeddingExample", source, out);
    try (URLClassLoader loader = new URLClassLoader(
        new URL[] {out.toUri().toURL()}, getClass().getClassLoader())) {
      loader.loadClass("EmbeddingExample").getMethod("main", String[].class)
          .invoke(null, (Object) new String[0]);
    }
  }

  /** The first java block of the README that {@code start} (a group) matches from its start. */
  private static String block(String start) throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    Matcher java = Pattern.compile("```java\n" + start + "```", Pattern.DOTALL).matcher(readme);
    assertThat(java.find()).as("a java block " + start + " in README.md").isTrue();
    return java.group(1);
  }

  private static void compile(String className, String source, Path out) throws IOException {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
      JavaFileObject unit = new SimpleJavaFileObject(
          URI.create("string:///" + className + ".java"), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return source;
        }
      };
      boolean compiled = compiler.getTask(diagnostics, files, null,
          List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString()),
          null, List.of(unit)).call();
      assertThat(compiled).as(diagnostics.toString()).isTrue();
    }
    assertThat(out.resolve(className + ".class")).exists();
  }
}
