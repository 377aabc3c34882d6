package io.stator.server.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.server.wire.WireProtocol;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The committed constraint table is what ConstraintTableGenerator makes from DynamoDB's service
 * models, when they are at hand ({@code spec/} of the shared folder beside the repository);
 * skipped where they are not, since the build never needs them.
 */
class ConstraintTableTest {
  private static final String DYNAMODB = "dynamodb-2012-08-10.service-2.json";
  private static final String STREAMS = "dynamodbstreams-2012-08-10.service-2.json";

  @Test
  void tableIsWhatTheGeneratorMakesFromTheModels() throws IOException {
    Path spec = specFolder();
    assumeTrue(spec != null, "DynamoDB's service models are not at hand");
    String made = ConstraintTableGenerator.generate(spec.resolve(DYNAMODB), spec.resolve(STREAMS));
    String committed;
    try (InputStream in = ServiceModel.class.getResourceAsStream("constraints.tsv")) {
      committed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(committed)
        .as("constraints.tsv is stale: run ConstraintTableGenerator with the models")
        .isEqualTo(made);
  }

  @Test
  void everyOperationServedHasItsInputShape() {
    for (String operation : WireProtocol.operations()) {
      String target = operation.startsWith(WireProtocol.STREAMS_TARGET_PREFIX)
          ? operation
          : WireProtocol.TARGET_PREFIX + operation;
      assertThat(ModelValidation.knows(target)).as(target).isTrue();
    }
  }

  /** The models' folder: {@code shared/spec} beside the repository, seen from the module. */
  private static Path specFolder() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path spec = dir.resolveSibling("shared").resolve("spec");
      if (Files.isRegularFile(spec.resolve(DYNAMODB))
          && Files.isRegularFile(spec.resolve(STREAMS))) {
        return spec;
      }
    }
    return null;
  }
}
