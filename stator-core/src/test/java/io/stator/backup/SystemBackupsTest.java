package io.stator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.BackupSummary;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListBackupsRequest;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.PutItemRequest;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.capacity.ManualClock;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.schema.SpaceNames;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The SYSTEM backup of a deleted table with point-in-time recovery, on a clock moved by hand: it
 * is kept 35 days after it was made, then no operation finds it, and the next start drops its
 * copy.
 */
class SystemBackupsTest {
  private final MemoryStorage storage = new MemoryStorage();
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
  private Engine db = new Engine(storage, EngineOptions.defaults().withClock(clock));

  /** A clock the test moves. */

  @AfterEach
  void close() {
    db.close();
  }

  private List<BackupSummary> system() {
    return db.listBackups(new ListBackupsRequest("Orders", null, null, null, null, "SYSTEM"))
        .backupSummaries();
  }

  @Test
  void aSystemBackupExpiresThirtyFiveDaysAfterItWasMade() {
    db.createTable(new CreateTableRequest("Orders", List.of(new AttributeDefinition("id", "S")),
        List.of(new KeySchemaElement("id", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
        null, null, null, null, null, null));
    db.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders",
        new PointInTimeRecoverySpecification(true, null)));
    db.putItem(new PutItemRequest("Orders", Map.of("id", AttributeValue.s("a")), null, null,
        null, null, null, null, null, null, null));
    db.deleteTable(new DeleteTableRequest("Orders"));
    BackupSummary made = system().get(0);
    assertThat(made.backupExpiryDateTime()).isEqualTo(clock.instant().plus(Duration.ofDays(35)));
    String space = SpaceNames.backup(BackupArns.idOf(made.backupArn()));
    assertThat(storage.spaces()).contains(space);

    clock.advance(Duration.ofDays(35).minusSeconds(1));
    assertThat(system()).containsExactly(made);
    clock.advance(Duration.ofSeconds(1));
    assertThat(system()).isEmpty();
    assertThatThrownBy(() -> db.describeBackup(new DescribeBackupRequest(made.backupArn())))
        .isInstanceOfSatisfying(DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.BackupNotFoundException));

    db.close();
    db = new Engine(storage, EngineOptions.defaults().withClock(clock));
    assertThat(storage.spaces()).doesNotContain(space);
  }
}
