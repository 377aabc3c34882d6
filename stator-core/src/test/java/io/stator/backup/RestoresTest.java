package io.stator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateBackupRequest;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.KeySchemaElement;
import io.stator.api.PutItemRequest;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.ScanRequest;
import io.stator.api.TableDescription;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.engine.InterceptingStorage;
import io.stator.storage.Commit;
import io.stator.storage.StorageException;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a client meets only while a restore writes its items, held here at the storage: the
 * table is CREATING with its RestoreSummary in progress, a DeleteBackup of the backup is
 * BackupInUseException, a second restore to the name and a backup of the table are
 * TableInUseException; and a restore a
 * stop cuts short goes on when an engine starts on the store again.
 */
class RestoresTest {
  private final MemoryStorage memory = new MemoryStorage();
  private final RestoreHeld storage = new RestoreHeld(memory);
  private final Engine db = new Engine(storage, EngineOptions.defaults());

  /** Holds the first commit of a restore's thread until released, then fails it if asked. */
  private static final class RestoreHeld extends InterceptingStorage {
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean fail;

    RestoreHeld(MemoryStorage delegate) {
      super(delegate);
    }

    @Override
    protected void beforeCommit(Commit commit) {
      if (!Thread.currentThread().getName().equals("stator-restore")) {
        return;
      }
      held.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (fail) {
        throw new StorageException("the store stopped");
      }
    }
  }

  @AfterEach
  void close() {
    storage.release.countDown();
    db.close();
  }

  private String backupOfThreeItems() {
    db.createTable(new CreateTableRequest("Orders", List.of(new AttributeDefinition("id", "S")),
        List.of(new KeySchemaElement("id", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
        null, null, null, null, null, null));
    for (String id : List.of("a", "b", "c")) {
      db.putItem(new PutItemRequest("Orders", Map.of("id", AttributeValue.s(id)), null, null,
          null, null, null, null, null, null, null));
    }
    return db.createBackup(new CreateBackupRequest("Orders", "three")).backupDetails()
        .backupArn();
  }

  private static RestoreTableFromBackupRequest restore(String target, String arn) {
    return new RestoreTableFromBackupRequest(target, arn, null, null, null, null, null, null);
  }

  private static TableDescription awaitActive(Engine engine, String table) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      TableDescription d = engine.describeTable(new DescribeTableRequest(table)).table();
      if (d.tableStatus().equals("ACTIVE")) {
        return d;
      }
      assertThat(System.nanoTime()).as("%s still %s", table, d.tableStatus())
          .isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private static int count(Engine engine, String table) {
    return engine.scan(new ScanRequest(table, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, null)).count();
  }

  @Test
  void aRestoreInProgressHoldsItsBackupAndItsName() throws Exception {
    String arn = backupOfThreeItems();
    TableDescription answered = db.restoreTableFromBackup(restore("Copy", arn)).tableDescription();
    assertThat(answered.tableStatus()).isEqualTo("CREATING");
    assertThat(storage.held.await(30, TimeUnit.SECONDS)).isTrue();

    TableDescription during = db.describeTable(new DescribeTableRequest("Copy")).table();
    assertThat(during.tableStatus()).isEqualTo("CREATING");
    assertThat(during.restoreSummary().restoreInProgress()).isTrue();
    assertThatThrownBy(() -> db.deleteBackup(new DeleteBackupRequest(arn)))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.BackupInUseException);
          assertThat(e.getMessage()).contains("being restored");
        });
    assertThatThrownBy(() -> db.restoreTableFromBackup(restore("Copy", arn)))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.TableInUseException);
          assertThat(e.getMessage()).startsWith("Table is being created: Copy");
        });
    // That second restore, refused, leaves the first's claim on the backup.
    assertThatThrownBy(() -> db.deleteBackup(new DeleteBackupRequest(arn)))
        .isInstanceOfSatisfying(DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.BackupInUseException));
    // Nor may the table be backed up while it holds only some of its items.
    assertThatThrownBy(() -> db.createBackup(new CreateBackupRequest("Copy", "partial")))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.TableInUseException);
          assertThat(e.getMessage()).startsWith("Table is being created: Copy");
        });
    // Nor written or read: a table not yet ACTIVE is not found for item operations.
    assertThatThrownBy(() -> db.putItem(new PutItemRequest("Copy",
        Map.of("id", AttributeValue.s("client")), null, null, null, null, null, null, null, null,
        null)))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.ResourceNotFoundException);
          assertThat(e.getMessage()).isEqualTo("Requested resource not found");
        });
    assertThatThrownBy(() -> count(db, "Copy"))
        .isInstanceOfSatisfying(DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ResourceNotFoundException));
    assertThatThrownBy(() -> db.deleteTable(new DeleteTableRequest("Copy")))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.ResourceInUseException);
          assertThat(e.getMessage()).isEqualTo("Attempt to change a resource which is still in"
              + " use: Table is being created: Copy");
        });

    storage.release.countDown();
    TableDescription done = awaitActive(db, "Copy");
    assertThat(done.restoreSummary().restoreInProgress()).isFalse();
    assertThat(count(db, "Copy")).isEqualTo(3);
    assertThat(db.deleteBackup(new DeleteBackupRequest(arn)).backupDescription().backupDetails()
        .backupStatus()).isEqualTo("DELETED");
  }

  @Test
  void aRestoreCutShortGoesOnAtTheNextStart() throws Exception {
    String arn = backupOfThreeItems();
    db.restoreTableFromBackup(restore("Copy", arn));
    assertThat(storage.held.await(30, TimeUnit.SECONDS)).isTrue();
    storage.fail = true;
    storage.release.countDown();

    // Its clock past the restore's lease, which the stopped engine renews no more.
    Engine restarted = new Engine(memory, OnDemandBackupsTest.pastTheLeases());
    try {
      TableDescription done = awaitActive(restarted, "Copy");
      assertThat(done.restoreSummary().sourceBackupArn()).isEqualTo(arn);
      assertThat(done.restoreSummary().restoreInProgress()).isFalse();
      assertThat(count(restarted, "Copy")).isEqualTo(3);
      // The restore's claim is let go: the backup may be deleted.
      assertThat(restarted.deleteBackup(new DeleteBackupRequest(arn)).backupDescription()
          .backupDetails().backupStatus()).isEqualTo("DELETED");
    } finally {
      restarted.close();
    }
  }
}
