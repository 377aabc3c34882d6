package io.stator.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * An application on the module path can require the test artifact by a stable name: the jar the
 * sample builds against (the shaded {@code stator-junit}) is the automatic module {@code
 * io.stator.junit}, as the JDK's own {@code jar --describe-module} reads it.
 */
class ModuleNameTest {
  @Test
  void theTestArtifactIsTheAutomaticModuleIoStatorJunit() {
    String jar = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(p -> new File(p).getName().matches("stator-junit-[0-9].*\\.jar"))
        .findFirst().orElseThrow(() -> new AssertionError("stator-junit's jar on the class path"));
    StringWriter out = new StringWriter();
    int status = ToolProvider.findFirst("jar").orElseThrow()
        .run(new PrintWriter(out), new PrintWriter(out), "--describe-module", "--file", jar);
    assertThat(status).as(out.toString()).isZero();
    assertThat(out.toString()).contains("No module descriptor found. Derived automatic module.")
        .containsPattern("(?m)^io\\.stator\\.junit@\\S+ automatic$");
  }
}
