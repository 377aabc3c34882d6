package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.BackupDetails;
import io.stator.api.CreateBackupRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.TableDescription;
import io.stator.lease.Leases;
import io.stator.schema.SpaceNames;
import io.stator.storage.FaultyStorage;
import io.stator.storage.StorageKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Backups and restores with two engines on one storage, as two servers of a shared store: each
 * backup being made, point-in-time copy being made and restore is its engine's (a lease per
 * job), so an engine that starts leaves the other's alone and they complete; those of an engine
 * that stopped are forgotten or taken up by the other's housekeeping once their lease expired.
 *
 * <p>Engine A's jobs are held in the storage mid-way (latches), with no timing in the test: the
 * restore in its first item's commit, the point-in-time copy in its first commit of items, the
 * CreateBackup in its read of its record after the copy.
 */
class LeasedBackupsRestoresTest {
  private static final int ITEMS = TwoEngines.ITEMS;
  private final CountDownLatch restoreHeld = new CountDownLatch(1);
  private final CountDownLatch copyHeld = new CountDownLatch(1);
  private final CountDownLatch backupHeld = new CountDownLatch(1);
  private final TwoEngines engines = new TwoEngines(null);
  private final FaultyStorage aStorage = engines.aStorage;
  private final CountDownLatch release = engines.release;
  private final Engine a = engines.a;
  private Engine b;
  private String baseArn;

  @BeforeEach
  void open() {
    baseArn = a.createBackup(new CreateBackupRequest("Orders", "base")).backupDetails()
        .backupArn();
  }

  @AfterEach
  void close() {
    engines.close();
  }

  private record Held(CompletableFuture<TableDescription> copied,
      CompletableFuture<BackupDetails> backedUp) {}

  /** Starts on A a restore of the backup, a point-in-time restore and a CreateBackup, held. */
  private Held startHeldJobs() throws InterruptedException {
    aStorage.onlyCommits(space -> space.startsWith("table.")).holdCommits(restoreHeld, release);
    a.restoreTableFromBackup(new RestoreTableFromBackupRequest("Restored", baseArn, null, null,
        null, null, null, null));
    assertThat(restoreHeld.await(30, TimeUnit.SECONDS)).isTrue();
    aStorage.onlyCommits(space -> SpaceNames.isBackup(space)).holdCommits(copyHeld, release);
    CompletableFuture<TableDescription> copied = CompletableFuture.supplyAsync(
        () -> a.restoreTableToPointInTime(new RestoreTableToPointInTimeRequest(null, "Orders",
            "AsOf", true, null, null, null, null, null, null, null)).tableDescription());
    assertThat(copyHeld.await(30, TimeUnit.SECONDS)).isTrue();
    aStorage.holdReads(space -> space.equals("backups"), backupHeld, release);
    CompletableFuture<BackupDetails> backedUp = CompletableFuture.supplyAsync(
        () -> a.createBackup(new CreateBackupRequest("Orders", "mid")).backupDetails());
    assertThat(backupHeld.await(30, TimeUnit.SECONDS)).isTrue();
    return new Held(copied, backedUp);
  }

  private long backupSpaces() {
    return engines.storage.spaces().stream().filter(SpaceNames::isBackup).count();
  }

  private String status(Engine engine, String table) {
    return engine.describeTable(new DescribeTableRequest(table)).table().tableStatus();
  }

  private int count(Engine engine, String table) {
    return engine.scan(scan(table, null, null, null, null)).items().size();
  }

  @Test
  void anEngineThatStartsLeavesTheBackupsAndRestoresAnotherRunsAndTheyComplete()
      throws Exception {
    Held held = startHeldJobs();
    assertThat(backupSpaces()).isEqualTo(3); // base, mid and the point-in-time copy
    b = engines.startB();
    b.housekeepNow();
    assertThat(backupSpaces()).isEqualTo(3);
    assertThat(status(b, "Restored")).isEqualTo("CREATING");
    // The same restore asked of B meanwhile: the table is being made, as DynamoDB answers.
    assertThatThrownBy(() -> b.restoreTableFromBackup(new RestoreTableFromBackupRequest(
        "Restored", baseArn, null, null, null, null, null, null)))
        .isInstanceOfSatisfying(DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.TableInUseException));

    release.countDown();
    BackupDetails mid = held.backedUp().get(60, TimeUnit.SECONDS);
    assertThat(mid.backupStatus()).isEqualTo("AVAILABLE");
    assertThat(held.copied().get(60, TimeUnit.SECONDS).tableStatus()).isEqualTo("CREATING");
    await(() -> status(b, "Restored").equals("ACTIVE") && status(b, "AsOf").equals("ACTIVE"));
    assertThat(count(b, "Restored")).isEqualTo(ITEMS);
    assertThat(count(b, "AsOf")).isEqualTo(ITEMS);
    // The copy goes once its restore has made its table ACTIVE, just after.
    await(() -> backupSpaces() == 2);
  }

  @Test
  void theBackupsAndRestoresOfAnEngineThatStoppedAreSettledByTheOthersHousekeeping()
      throws Exception {
    b = engines.startB();
    Held held = startHeldJobs();
    // A renews its leases no more from here on: a server that hangs or dies.
    aStorage.onlyCommits(space -> space.startsWith("table.") || SpaceNames.isBackup(space)
        || space.equals(Leases.SPACE));
    engines.clock.advance(Duration.ofSeconds(29));
    b.housekeepNow();
    assertThat(backupSpaces()).isEqualTo(3); // A's leases hold
    assertThat(status(b, "Restored")).isEqualTo("CREATING");

    engines.clock.advance(Duration.ofSeconds(1)); // the leases' term, 30 s, is over
    b.housekeepNow();
    assertThat(backupSpaces()).isEqualTo(1); // mid and the copy forgotten, base kept
    await(() -> status(b, "Restored").equals("ACTIVE")); // B took the restore up
    assertThat(count(b, "Restored")).isEqualTo(ITEMS);

    // A comes back: its backup and its copy, forgotten meanwhile, fail with an error that says
    // so, and leave nothing behind, not the claim on Orders either; B's work stands.
    release.countDown();
    assertGivenUp(held.backedUp());
    assertGivenUp(held.copied());
    assertThat(backupSpaces()).isEqualTo(1);
    assertThat(backupRecords()).isEqualTo(1);
    assertThat(b.createBackup(new CreateBackupRequest("Orders", "after")).backupDetails()
        .backupStatus()).isEqualTo("AVAILABLE");
    a.close();
    b.housekeepNow();
    assertThat(backupSpaces()).isEqualTo(2); // base and after
    assertThat(status(b, "Restored")).isEqualTo("ACTIVE");
    assertThat(count(b, "Restored")).isEqualTo(ITEMS);
  }

  @Test
  void aRestoreTakenOverWhileItsHolderPausedIsNotWrittenAgainByTheHolder() throws Exception {
    b = engines.startB();
    // A's restore held in its first item's commit, then its lease renewals too: A pauses.
    aStorage.onlyCommits(space -> space.startsWith("table.")).holdCommits(restoreHeld, release);
    a.restoreTableFromBackup(new RestoreTableFromBackupRequest("Restored", baseArn, null, null,
        null, null, null, null));
    assertThat(restoreHeld.await(30, TimeUnit.SECONDS)).isTrue();
    aStorage.onlyCommits(space -> space.startsWith("table.") || space.equals(Leases.SPACE));
    engines.clock.advance(Duration.ofSeconds(30)); // A's lease has expired
    b.housekeepNow();
    await(() -> status(b, "Restored").equals("ACTIVE")); // B took the restore up and ended it
    for (int i = 0; i < ITEMS; i++) { // a client's writes to the restored table
      put(b, "Restored", item("id", "o" + i, "note", "after the restore"));
    }

    // A resumes: its held write of one item lands (written again, as B's restore changed the
    // table's definition meanwhile); then A finds its lease lost and stops before its next
    // write. Without that, it would write the 29 others too, one page with no pause between.
    release.countDown();
    await(() -> noted() == ITEMS - 1);
    a.close(); // which waits for A's restore to end
    assertThat(noted()).isEqualTo(ITEMS - 1);
    assertThat(status(b, "Restored")).isEqualTo("ACTIVE");
    assertThat(count(b, "Restored")).isEqualTo(ITEMS);
  }

  @Test
  void aRestoreThatFailsOnEitherEngineEndsAtItsThirdFailureWithItsTableDeleted()
      throws Exception {
    b = engines.startB();
    long tableSpaces = tableSpaces();
    String job = "restore/" + baseArn.substring(baseArn.lastIndexOf('/') + 1) + "/Restored";
    // Failure 1, on A: its first item's commit fails; the failure is counted in the restore's
    // claim before its lease is given up.
    aStorage.onlyCommits(space -> space.startsWith("table.")).failCommits(1);
    a.restoreTableFromBackup(new RestoreTableFromBackupRequest("Restored", baseArn, null, null,
        null, null, null, null));
    await(() -> aStorage.injected() == 1 && !leaseHeld(job));
    // Failure 2, on B, which takes the restore up at its housekeeping.
    engines.bStorage.onlyCommits(space -> space.startsWith("table.")).failCommits(1);
    b.housekeepNow();
    await(() -> engines.bStorage.injected() == 1 && !leaseHeld(job));
    assertThat(status(b, "Restored")).isEqualTo("CREATING");
    // Failure 3, on A again: the count is the claim's, not an engine's. The restore ends.
    aStorage.failCommits(1);
    a.housekeepNow();
    await(() -> aStorage.injected() == 2 && !leaseHeld(job));
    assertThatThrownBy(() -> status(b, "Restored"))
        .isInstanceOfSatisfying(DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ResourceNotFoundException));
    assertThat(tableSpaces()).isEqualTo(tableSpaces);

    // Nothing is tried again, and the backup is free: a new restore of it completes.
    b.housekeepNow();
    a.housekeepNow();
    b.restoreTableFromBackup(new RestoreTableFromBackupRequest("Restored", baseArn, null, null,
        null, null, null, null));
    await(() -> status(b, "Restored").equals("ACTIVE"));
    assertThat(count(b, "Restored")).isEqualTo(ITEMS);
    assertThat(aStorage.injected() + engines.bStorage.injected()).isEqualTo(3);
  }

  /** Whether an engine holds the lease {@code job}, as stored. */
  private boolean leaseHeld(String job) {
    return engines.storage.get(Leases.SPACE, StorageKey.of(job.getBytes(StandardCharsets.UTF_8)))
        .isPresent();
  }

  private long tableSpaces() {
    return engines.storage.spaces().stream().filter(space -> space.startsWith("table.")).count();
  }

  /** How many items of Restored hold the client's note. */
  private long noted() {
    return b.scan(scan("Restored", null, null, null, null)).items().stream()
        .filter(item -> item.containsKey("note")).count();
  }

  /** A job of A's that B forgot: InternalServerError saying why, as no DynamoDB error fits. */
  private static void assertGivenUp(CompletableFuture<?> job) {
    assertThat(job).failsWithin(60, TimeUnit.SECONDS)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOfSatisfying(DynamoDbException.class, e -> {
          assertThat(e.type()).isEqualTo(ErrorType.InternalServerError);
          assertThat(e.getMessage()).contains("was given up while this server made it");
        });
  }

  /** How many backup records the store holds, listed or not. */
  private long backupRecords() {
    byte[] partition = "backup".getBytes(StandardCharsets.UTF_8);
    return engines.storage.scan("backups", null, null, null, 1000).stream()
        .filter(r -> Arrays.equals(r.key().partition(), partition)).count();
  }

  private static void await(BooleanSupplier done) throws InterruptedException {
    TwoEngines.await(done::getAsBoolean, Boolean::booleanValue);
  }
}
