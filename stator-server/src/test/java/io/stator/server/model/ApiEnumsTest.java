package io.stator.server.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.api.AttributeAction;
import io.stator.api.BackupStatus;
import io.stator.api.BackupType;
import io.stator.api.BackupTypeFilter;
import io.stator.api.BillingMode;
import io.stator.api.ComparisonOperator;
import io.stator.api.ConditionalOperator;
import io.stator.api.ContinuousBackupsStatus;
import io.stator.api.ContributorInsightsAction;
import io.stator.api.ContributorInsightsMode;
import io.stator.api.ContributorInsightsStatus;
import io.stator.api.ExportFormat;
import io.stator.api.ExportStatus;
import io.stator.api.ExportType;
import io.stator.api.ExportViewType;
import io.stator.api.ImportStatus;
import io.stator.api.IndexStatus;
import io.stator.api.InputCompressionType;
import io.stator.api.InputFormat;
import io.stator.api.KeyType;
import io.stator.api.OperationType;
import io.stator.api.PointInTimeRecoveryStatus;
import io.stator.api.ProjectionType;
import io.stator.api.ReturnConsumedCapacity;
import io.stator.api.ReturnItemCollectionMetrics;
import io.stator.api.ReturnValue;
import io.stator.api.ReturnValuesOnConditionCheckFailure;
import io.stator.api.S3SseAlgorithm;
import io.stator.api.SSEStatus;
import io.stator.api.SSEType;
import io.stator.api.ScalarAttributeType;
import io.stator.api.Select;
import io.stator.api.ShardIteratorType;
import io.stator.api.StreamStatus;
import io.stator.api.StreamViewType;
import io.stator.api.TableClass;
import io.stator.api.TableStatus;
import io.stator.api.TimeToLiveStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The embedded API's enums hold exactly the values of the DynamoDB (and Streams) enum of the
 * same name: checked against the committed constraint table (the enums requests carry) on every
 * build, and against the service models themselves (every enum, responses' too) where they are
 * at hand, as {@link ConstraintTableTest} does.
 */
class ApiEnumsTest {
  private static final List<Class<? extends Enum<?>>> ENUMS = List.of(
      AttributeAction.class, BackupStatus.class, BackupType.class, BackupTypeFilter.class,
      BillingMode.class, ComparisonOperator.class, ConditionalOperator.class,
      ContinuousBackupsStatus.class, ContributorInsightsAction.class,
      ContributorInsightsMode.class, ContributorInsightsStatus.class, ExportFormat.class,
      ExportStatus.class, ExportType.class, ExportViewType.class, ImportStatus.class,
      IndexStatus.class, InputCompressionType.class, InputFormat.class, KeyType.class,
      OperationType.class, PointInTimeRecoveryStatus.class, ProjectionType.class,
      ReturnConsumedCapacity.class, ReturnItemCollectionMetrics.class, ReturnValue.class,
      ReturnValuesOnConditionCheckFailure.class, S3SseAlgorithm.class, SSEStatus.class,
      SSEType.class, ScalarAttributeType.class, Select.class, ShardIteratorType.class,
      StreamStatus.class, StreamViewType.class, TableClass.class, TableStatus.class,
      TimeToLiveStatus.class);

  @Test
  void theEnumsRequestsCarryMatchTheConstraintTable() throws IOException {
    Map<String, List<String>> table = new HashMap<>();
    try (InputStream in = ServiceModel.class.getResourceAsStream("constraints.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String[] f = line.split("\t");
        if (f.length >= 3 && f[0].equals("string") && f[2].startsWith("enum=")) {
          table.put(f[1], List.of(f[2].substring("enum=".length()).split(",")));
        }
      }
    }
    int checked = 0;
    for (Class<? extends Enum<?>> e : ENUMS) {
      List<String> values = table.get(e.getSimpleName());
      if (values != null) {
        assertThat(names(e)).as(e.getSimpleName()).containsExactlyInAnyOrderElementsOf(values);
        checked++;
      }
    }
    assertThat(checked).as("enums found in the constraint table").isGreaterThanOrEqualTo(20);
  }

  @Test
  void everyEnumMatchesTheServiceModels() throws IOException {
    Path spec = specFolder();
    assumeTrue(spec != null, "DynamoDB's service models are not at hand");
    Map<String, List<String>> model = new HashMap<>();
    model.putAll(enums(spec.resolve("dynamodbstreams-2012-08-10.service-2.json")));
    model.putAll(enums(spec.resolve("dynamodb-2012-08-10.service-2.json")));
    for (Class<? extends Enum<?>> e : ENUMS) {
      assertThat(model).as("the models' enums").containsKey(e.getSimpleName());
      assertThat(names(e)).as(e.getSimpleName()).isEqualTo(model.get(e.getSimpleName()));
    }
  }

  private static List<String> names(Class<? extends Enum<?>> e) {
    return Arrays.stream(e.getEnumConstants()).map(Enum::name).toList();
  }

  /** Each shape of the model that has an enum, with its values in the model's order. */
  private static Map<String, List<String>> enums(Path file) throws IOException {
    Map<String, List<String>> enums = new HashMap<>();
    try (JsonParser p = new JsonFactory().createParser(Files.readAllBytes(file))) {
      p.nextToken();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (!field.equals("shapes")) {
          p.skipChildren();
          continue;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String shape = p.currentName();
          p.nextToken();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String member = p.currentName();
            p.nextToken();
            if (member.equals("enum")) {
              List<String> values = new ArrayList<>();
              while (p.nextToken() == JsonToken.VALUE_STRING) {
                values.add(p.getText());
              }
              enums.put(shape, values);
            } else {
              p.skipChildren();
            }
          }
        }
      }
    }
    return enums;
  }

  /** The models' folder: {@code shared/spec} beside the repository, seen from the module. */
  private static Path specFolder() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path spec = dir.resolveSibling("shared").resolve("spec");
      if (Files.isRegularFile(spec.resolve("dynamodb-2012-08-10.service-2.json"))) {
        return spec;
      }
    }
    return null;
  }
}
