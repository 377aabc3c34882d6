package io.stator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateBackupRequest;
import io.stator.api.CreateBackupResponse;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListBackupsRequest;
import io.stator.api.PutItemRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.engine.InterceptingStorage;
import io.stator.lease.JobLeases;
import io.stator.schema.SpaceNames;
import io.stator.storage.Commit;
import io.stator.storage.StorageException;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a client can meet only while a backup is being made, held open here at the storage's
 * copy: the backup is CREATING, a second backup of its table is BackupInUseException, and so is
 * a DeleteBackup of it. A copy that fails leaves no backup; one cut short by a stop is forgotten
 * when the engine starts again.
 */
class OnDemandBackupsTest {
  private final MemoryStorage memory = new MemoryStorage();
  private final CopyHeld storage = new CopyHeld(memory);
  private Engine db = new Engine(storage, EngineOptions.defaults());
  private final ExecutorService pool = Executors.newSingleThreadExecutor();

  /** Holds each copy until released, or fails it. */
  private static final class CopyHeld extends InterceptingStorage {
    final CountDownLatch copying = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean fail;

    CopyHeld(MemoryStorage delegate) {
      super(delegate);
    }

    @Override
    protected void beforeCommit(Commit commit) {}

    @Override
    public void copySpace(String source, String target) {
      super.copySpace(source, target);
      copying.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (fail) {
        throw new StorageException("the copy failed");
      }
    }
  }

  @AfterEach
  void close() {
    storage.release.countDown();
    pool.shutdownNow();
    db.close();
  }

  private void createTable(String name) {
    db.createTable(new CreateTableRequest(name, List.of(new AttributeDefinition("id", "S")),
        List.of(new KeySchemaElement("id", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
        null, null, null, null, null, null));
    db.putItem(new PutItemRequest(name, Map.of("id", AttributeValue.s("a")), null, null, null,
        null, null, null, null, null, null));
  }

  private Future<CreateBackupResponse> backupHeld(String table) throws InterruptedException {
    Future<CreateBackupResponse> made =
        pool.submit(() -> db.createBackup(new CreateBackupRequest(table, "held")));
    assertThat(storage.copying.await(30, TimeUnit.SECONDS)).isTrue();
    return made;
  }

  @Test
  void aBackupBeingMadeIsCreatingAndInUse() throws Exception {
    createTable("Orders");
    Future<CreateBackupResponse> made = backupHeld("Orders");

    var listed = db.listBackups(new ListBackupsRequest("Orders", null, null, null, null, null))
        .backupSummaries();
    assertThat(listed).singleElement()
        .satisfies(b -> assertThat(b.backupStatus()).isEqualTo("CREATING"));
    String arn = listed.get(0).backupArn();
    assertThat(db.describeBackup(new DescribeBackupRequest(arn)).backupDescription()
        .backupDetails().backupStatus()).isEqualTo("CREATING");
    assertThatThrownBy(() -> db.createBackup(new CreateBackupRequest("Orders", "second")))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.BackupInUseException);
          assertThat(e.getMessage()).contains("Orders");
        });
    assertThatThrownBy(() -> db.deleteBackup(new DeleteBackupRequest(arn)))
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.BackupInUseException);
          assertThat(e.getMessage()).contains(arn).contains("being created");
        });

    storage.release.countDown();
    assertThat(made.get(30, TimeUnit.SECONDS).backupDetails().backupStatus())
        .isEqualTo("AVAILABLE");
    assertThat(db.describeBackup(new DescribeBackupRequest(arn)).backupDescription()
        .sourceTableDetails().itemCount()).isEqualTo(1L);
    // Made, the table takes another backup, and the first may be deleted.
    assertThat(db.createBackup(new CreateBackupRequest("Orders", "second")).backupDetails()
        .backupStatus()).isEqualTo("AVAILABLE");
    assertThat(db.deleteBackup(new DeleteBackupRequest(arn)).backupDescription()
        .backupDetails().backupStatus()).isEqualTo("DELETED");
  }

  /** An engine's options whose clock is past the term of the leases taken now. */
  static EngineOptions pastTheLeases() {
    return EngineOptions.defaults().withClock(
        Clock.offset(Clock.systemUTC(), JobLeases.TERM.plusSeconds(1)));
  }

  @Test
  void aFailedCopyLeavesNoBackup() {
    createTable("Orders");
    storage.fail = true;
    storage.release.countDown();
    assertThatThrownBy(() -> db.createBackup(new CreateBackupRequest("Orders", "failing")))
        .isInstanceOf(StorageException.class);
    assertThat(db.listBackups(new ListBackupsRequest(null, null, null, null, null, "ALL"))
        .backupSummaries()).isEmpty();
    assertThat(memory.spaces()).noneMatch(SpaceNames::isBackup);
  }

  @Test
  void aBackupCutShortByAStopIsForgottenAtTheNextStart() throws Exception {
    createTable("Orders");
    backupHeld("Orders");
    // Another engine on the same store starts while the first is mid-copy, its clock past the
    // backup's lease: as after a server that stopped mid-copy and renews the lease no more.
    Engine restarted = new Engine(memory, pastTheLeases());
    try {
      assertThat(restarted.listBackups(
          new ListBackupsRequest(null, null, null, null, null, "ALL")).backupSummaries())
          .isEmpty();
      assertThat(memory.spaces()).noneMatch(SpaceNames::isBackup);
      assertThat(restarted.createBackup(new CreateBackupRequest("Orders", "after")).backupDetails()
          .backupStatus()).isEqualTo("AVAILABLE");
    } finally {
      restarted.close();
    }
  }
}
