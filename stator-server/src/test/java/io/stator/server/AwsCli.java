package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The AWS CLI run as a user types it, against a server: {@code aws dynamodb ...}. */
public final class AwsCli {
  /** What one command printed, and its exit code. */
  public record Run(int exit, String out, String err) {}

  private AwsCli() {}

  /** Whether an {@code aws} command is on the PATH (tests that need it are skipped without). */
  public static boolean installed() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, "aws"))) {
        return true;
      }
    }
    return false;
  }

  /** Runs {@code aws dynamodb <arguments>} against {@code endpoint}, with JSON output. */
  public static Run dynamodb(URI endpoint, String... arguments) {
    List<String> command = new ArrayList<>(List.of("aws", "dynamodb"));
    command.addAll(List.of(arguments));
    command.addAll(List.of("--endpoint-url", endpoint.toString(), "--region", "us-east-1",
        "--output", "json"));
    try {
      Path out = Files.createTempFile("aws-out", ".json");
      Path err = Files.createTempFile("aws-err", ".txt");
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().putAll(Map.of(
          "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local",
          "AWS_PAGER", "", "AWS_MAX_ATTEMPTS", "1"));
      Process process = builder.start();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("aws finished").isTrue();
      Run run = new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
      Files.delete(out);
      Files.delete(err);
      return run;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
