package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.AttributeDefinition;
import io.stator.api.DescribeExportRequest;
import io.stator.api.DescribeImportRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.ExportDescription;
import io.stator.api.ExportTableToPointInTimeRequest;
import io.stator.api.ImportTableDescription;
import io.stator.api.ImportTableRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.S3BucketSource;
import io.stator.api.TableCreationParameters;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.capacity.ManualClock;
import io.stator.lease.Leases;
import io.stator.storage.FaultyStorage;
import io.stator.storage.memory.MemoryStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exports and imports with two engines on one storage, as two servers of a shared store: each
 * job is its engine's (a lease per job), so an engine that starts leaves the other's jobs
 * running, and one whose engine stopped is settled FAILED by the other's housekeeping once its
 * lease has expired, with no restart.
 *
 * <p>Engine A's jobs are held in the storage (their first commit waits on a latch) for exactly
 * as long as the test needs, with no timing in the test.
 */
class LeasedExportsImportsTest {
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
  private static final int ITEMS = 30;
  private final ManualClock clock = new ManualClock(START);
  private final MemoryStorage storage = new MemoryStorage();
  private final FaultyStorage aStorage = new FaultyStorage(storage);
  private final CountDownLatch exportHeld = new CountDownLatch(1);
  private final CountDownLatch importHeld = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  @TempDir Path dir;
  private EngineOptions options;
  private Engine a;
  private Engine b;

  @BeforeEach
  void open() throws IOException {
    // No background sweep rounds: they are no part of what is tested.
    options = EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO)
        .withExportDirectory(dir.resolve("s3"));
    a = new Engine(aStorage, options);
    a.createTable(create("Orders", "id", "S", null, null));
    a.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders",
        new PointInTimeRecoverySpecification(true, null)));
    clock.advanceSeconds(1);
    for (int i = 0; i < ITEMS; i++) {
      put(a, "Orders", item("id", "o" + i));
    }
    clock.advanceSeconds(1);
    Path source = Files.createDirectories(dir.resolve("s3").resolve("in"));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < ITEMS; i++) {
      lines.append("{\"Item\":{\"id\":{\"S\":\"i").append(i).append("\"}}}\n");
    }
    Files.writeString(source.resolve("items.json"), lines);
  }

  @AfterEach
  void close() {
    release.countDown();
    try {
      a.close();
    } finally {
      if (b != null) {
        b.close();
      }
    }
  }

  /**
   * Starts an export of Orders and an import into Imported on engine A, both held: the import in
   * its first item's commit, the export in the first read of the copy it has made or, when not
   * {@code copied}, in the first commit of that copy (its record).
   */
  private String[] startHeldJobs(boolean copied) throws InterruptedException {
    if (copied) {
      aStorage.holdReads(space -> space.startsWith("backup."), exportHeld, release);
    } else {
      aStorage.onlyCommits(space -> space.equals("backups")).holdCommits(exportHeld, release);
    }
    String exportArn = a.exportTableToPointInTime(new ExportTableToPointInTimeRequest(
        "Orders", null, null, "out", null, null, null, null, null, null, null))
        .exportDescription().exportArn();
    assertThat(exportHeld.await(30, TimeUnit.SECONDS)).isTrue();
    aStorage.onlyCommits(space -> space.equals("backups") || space.startsWith("table."))
        .holdCommits(importHeld, release);
    String importArn = a.importTable(new ImportTableRequest(null,
        new S3BucketSource(null, "in", null), "DYNAMODB_JSON", null, "NONE",
        new TableCreationParameters("Imported", List.of(new AttributeDefinition("id", "S")),
            List.of(new KeySchemaElement("id", "HASH")), "PAY_PER_REQUEST", null, null, null,
            null))).importTableDescription().importArn();
    assertThat(importHeld.await(30, TimeUnit.SECONDS)).isTrue();
    return new String[] {exportArn, importArn};
  }

  private ExportDescription export(Engine engine, String arn) {
    return engine.describeExport(new DescribeExportRequest(arn)).exportDescription();
  }

  private ImportTableDescription imported(Engine engine, String arn) {
    return engine.describeImport(new DescribeImportRequest(arn)).importTableDescription();
  }

  @Test
  void anEngineThatStartsLeavesTheJobsAnotherRunsAndTheyComplete() throws Exception {
    // The export reads its copy of the table when B starts: B's start must leave that copy too.
    String[] arns = startHeldJobs(true);
    b = new Engine(storage, options);
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("IN_PROGRESS");
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("IN_PROGRESS");
    b.housekeepNow();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("IN_PROGRESS");
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("IN_PROGRESS");

    release.countDown();
    ExportDescription exported = await(() -> export(b, arns[0]),
        d -> !d.exportStatus().equals("IN_PROGRESS"));
    assertThat(exported.exportStatus()).isEqualTo("COMPLETED");
    assertThat(exported.itemCount()).isEqualTo(ITEMS);
    ImportTableDescription done = await(() -> imported(b, arns[1]),
        d -> !d.importStatus().equals("IN_PROGRESS"));
    assertThat(done.importStatus()).isEqualTo("COMPLETED");
    assertThat(done.importedItemCount()).isEqualTo(ITEMS);
  }

  @Test
  void theJobsOfAnEngineThatStoppedAreSettledByTheOthersHousekeeping() throws Exception {
    b = new Engine(storage, options);
    String[] arns = startHeldJobs(false);
    // A renews its leases no more from here on: a server that hangs or dies.
    aStorage.onlyCommits(space -> space.equals("backups") || space.startsWith("table.")
        || space.equals(Leases.SPACE));
    clock.advance(Duration.ofSeconds(29));
    b.housekeepNow();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("IN_PROGRESS"); // A's lease holds
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("IN_PROGRESS");

    clock.advance(Duration.ofSeconds(1)); // the leases' term, 30 s, is over
    b.housekeepNow();
    ExportDescription failed = export(b, arns[0]);
    assertThat(failed.exportStatus()).isEqualTo("FAILED");
    assertThat(failed.failureCode()).isEqualTo("ServerStopped");
    ImportTableDescription importFailed = imported(b, arns[1]);
    assertThat(importFailed.importStatus()).isEqualTo("FAILED");
    assertThat(importFailed.failureCode()).isEqualTo("ServerStopped");
    assertThat(b.describeTable(new DescribeTableRequest("Imported")).table().tableStatus())
        .isEqualTo("ACTIVE");

    // A comes back and its export runs to its end: the manifest summary, written just before
    // its record, is there once A's threads have stopped; what B recorded stands.
    release.countDown();
    Path summary = dir.resolve("s3").resolve("out")
        .resolve(failed.exportManifest());
    await(() -> Files.exists(summary), Boolean::booleanValue);
    a.close();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("FAILED");
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("FAILED");
  }

  @Test
  void theCopyOfAnExportWhoseEngineStoppedIsDroppedWhenTheExportIsSettled() throws Exception {
    b = new Engine(storage, options);
    String[] arns = startHeldJobs(true);
    aStorage.onlyCommits(space -> space.startsWith("table.") || space.equals(Leases.SPACE));
    assertThat(storage.spaces()).anyMatch(space -> space.startsWith("backup."));
    clock.advance(Duration.ofSeconds(30));
    b.housekeepNow();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("FAILED");
    assertThat(storage.spaces()).noneMatch(space -> space.startsWith("backup."));
  }

  private static <T> T await(Supplier<T> read, Predicate<T> done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      T t = read.get();
      if (done.test(t)) {
        return t;
      }
      assertThat(System.nanoTime()).as("waiting").isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
