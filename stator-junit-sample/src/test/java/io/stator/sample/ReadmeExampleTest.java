package io.stator.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
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
 * The README's JUnit example compiles against the published jar as a user's test would (with
 * the imports an IDE adds), so the README cannot name a class, method or option that is gone.
 */
class ReadmeExampleTest {
  private static final String IMPORTS = String.join("\n",
      "import io.stator.junit.EmbeddedStator;",
      "import io.stator.junit.StatorTest;",
      "import org.junit.jupiter.api.Test;",
      "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;",
      "import software.amazon.awssdk.services.dynamodb.model.*;",
      "");

  @Test
  void theJunitExampleCompiles(@TempDir Path out) throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    Matcher java = Pattern.compile("```java\n(@StatorTest.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(java.find()).as("a java block starting with @StatorTest in README.md").isTrue();
    String source = IMPORTS + java.group(1);
    String className = Pattern.compile("class (\\w+)").matcher(source).results()
        .findFirst().orElseThrow().group(1);

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
