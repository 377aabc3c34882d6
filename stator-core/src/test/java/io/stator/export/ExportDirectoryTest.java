package io.stator.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Buckets and prefixes as directories under the export directory, and what may not leave it. */
class ExportDirectoryTest {
  private final Path root = Path.of("/srv/stator/exports");
  private final ExportDirectory directory = new ExportDirectory(root);

  @Test
  void aBucketIsADirectoryAndAPrefixAPathInIt() {
    assertThat(directory.resolve("b", null)).isEqualTo(root.resolve("b"));
    assertThat(directory.resolve("b", "")).isEqualTo(root.resolve("b"));
    assertThat(directory.resolve("b", "x/y/")).isEqualTo(root.resolve("b/x/y"));
    assertThat(directory.resolve("b", "x//y")).isEqualTo(root.resolve("b/x/y"));
    assertThat(directory.resolve("my..bucket", "a..b")).isEqualTo(root.resolve("my..bucket/a..b"));
  }

  @Test
  void aPathOutOfTheDirectoryIsAValidationException() {
    for (String prefix : new String[] {"..", "../x", "x/../../y", "/etc", ".", "x/./y", "a\\b"}) {
      DynamoDbException e = catchThrowableOfType(DynamoDbException.class,
          () -> directory.resolve("b", prefix));
      assertThat(e).as(prefix).isNotNull();
      assertThat(e.type()).isEqualTo(ErrorType.ValidationException);
      assertThat(e.getMessage()).contains("Invalid S3Prefix '" + prefix + "'");
    }
    for (String bucket : new String[] {"..", ".", "a/b", "", null}) {
      DynamoDbException e = catchThrowableOfType(DynamoDbException.class,
          () -> directory.resolve(bucket, "x"));
      assertThat(e).as(bucket).isNotNull();
      assertThat(e.getMessage()).contains("Invalid S3Bucket");
    }
  }

  @Test
  void withoutADirectoryEveryBucketIsRefusedSayingHowToGiveOne() {
    DynamoDbException e = catchThrowableOfType(DynamoDbException.class,
        () -> new ExportDirectory(null).resolve("b", null));
    assertThat(e.type()).isEqualTo(ErrorType.ValidationException);
    assertThat(e.getMessage()).contains("--export-dir");
  }
}
