package io.stator.engine;

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
import io.stator.api.S3BucketSource;
import io.stator.api.TableCreationParameters;
import io.stator.lease.Leases;
import io.stator.storage.FaultyStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
  private static final int ITEMS = TwoEngines.ITEMS;
  private final CountDownLatch exportHeld = new CountDownLatch(1);
  private final CountDownLatch importHeld = new CountDownLatch(1);
  @TempDir Path dir;
  private TwoEngines engines;
  private FaultyStorage aStorage;
  private CountDownLatch release;
  private Engine a;
  private Engine b;

  @BeforeEach
  void open() throws IOException {
    engines = new TwoEngines(dir.resolve("s3"));
    aStorage = engines.aStorage;
    release = engines.release;
    a = engines.a;
    Path source = Files.createDirectories(dir.resolve("s3").resolve("in"));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < ITEMS; i++) {
      lines.append("{\"Item\":{\"id\":{\"S\":\"i").append(i).append("\"}}}\n");
    }
    Files.writeString(source.resolve("items.json"), lines);
  }

  @AfterEach
  void close() {
    engines.close();
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
    b = engines.startB();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("IN_PROGRESS");
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("IN_PROGRESS");
    b.housekeepNow();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("IN_PROGRESS");
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("IN_PROGRESS");

    release.countDown();
    ExportDescription exported = TwoEngines.await(() -> export(b, arns[0]),
        d -> !d.exportStatus().equals("IN_PROGRESS"));
    assertThat(exported.exportStatus()).isEqualTo("COMPLETED");
    assertThat(exported.itemCount()).isEqualTo(ITEMS);
    ImportTableDescription done = TwoEngines.await(() -> imported(b, arns[1]),
        d -> !d.importStatus().equals("IN_PROGRESS"));
    assertThat(done.importStatus()).isEqualTo("COMPLETED");
    assertThat(done.importedItemCount()).isEqualTo(ITEMS);
  }

  @Test
  void theJobsOfAnEngineThatStoppedAreSettledByTheOthersHousekeeping() throws Exception {
    b = engines.startB();
    String[] arns = startHeldJobs(false);
    // A renews its leases no more from here on: a server that hangs or dies.
    aStorage.onlyCommits(space -> space.equals("backups") || space.startsWith("table.")
        || space.equals(Leases.SPACE));
    engines.clock.advance(Duration.ofSeconds(29));
    b.housekeepNow();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("IN_PROGRESS"); // A's lease holds
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("IN_PROGRESS");

    engines.clock.advance(Duration.ofSeconds(1)); // the leases' term, 30 s, is over
    b.housekeepNow();
    ExportDescription failed = export(b, arns[0]);
    assertThat(failed.exportStatus()).isEqualTo("FAILED");
    assertThat(failed.failureCode()).isEqualTo("ServerStopped");
    ImportTableDescription importFailed = imported(b, arns[1]);
    assertThat(importFailed.importStatus()).isEqualTo("FAILED");
    assertThat(importFailed.failureCode()).isEqualTo("ServerStopped");
    assertThat(b.describeTable(new DescribeTableRequest("Imported")).table().tableStatus())
        .isEqualTo("ACTIVE");

    // A comes back. Its export finds its lease lost before its first line, and deletes the
    // files it began, which B's record points to none of, with the copy it made; its import
    // stops after the write it was held in (written again, as B's settling made the table
    // ACTIVE meanwhile). What B recorded stands.
    Path files = dir.resolve("s3").resolve("out").resolve(failed.exportManifest()).getParent();
    assertThat(files).isDirectory();
    release.countDown();
    TwoEngines.await(() -> Files.exists(files), exists -> !exists);
    TwoEngines.await(() -> count(b, "Imported"), n -> n == 1);
    a.close(); // which waits for A's jobs to end
    assertThat(count(b, "Imported")).isEqualTo(1);
    assertThat(files).doesNotExist();
    assertThat(engines.storage.spaces()).noneMatch(space -> space.startsWith("backup."));
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("FAILED");
    assertThat(imported(b, arns[1]).importStatus()).isEqualTo("FAILED");
  }

  private static int count(Engine engine, String table) {
    return engine.scan(Fixtures.scan(table, null, null, null, null)).items().size();
  }

  @Test
  void theCopyOfAnExportWhoseEngineStoppedIsDroppedWhenTheExportIsSettled() throws Exception {
    b = engines.startB();
    String[] arns = startHeldJobs(true);
    aStorage.onlyCommits(space -> space.startsWith("table.") || space.equals(Leases.SPACE));
    assertThat(engines.storage.spaces()).anyMatch(space -> space.startsWith("backup."));
    engines.clock.advance(Duration.ofSeconds(30));
    b.housekeepNow();
    assertThat(export(b, arns[0]).exportStatus()).isEqualTo("FAILED");
    assertThat(engines.storage.spaces()).noneMatch(space -> space.startsWith("backup."));
  }
}
