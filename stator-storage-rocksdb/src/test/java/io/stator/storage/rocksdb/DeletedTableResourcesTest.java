package io.stator.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DynamoDbStreams;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ListStreamsResponse;
import io.stator.api.PutItemRequest;
import io.stator.api.StreamSpecification;
import io.stator.capacity.ManualClock;
import io.stator.engine.EngineOptions;
import io.stator.schema.StreamDefinition;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleted tables give their resources back: tables with streams, created, written and deleted
 * over and over, leave no column family, file or descriptor per table behind, before or after a
 * restart, and their streams' records go once their 24 hours have passed. Before the streams
 * shared one space, 300 such cycles left 692 open descriptors and 296 files in the store.
 */
class DeletedTableResourcesTest {
  private static final int CYCLES = 150;

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));

  @Test
  void deletedTablesLeaveNoSpaceFileOrDescriptorBehindAndTheirStreamsGoADayLater()
      throws Exception {
    int spacesBefore;
    long descriptorsBefore;
    try (RocksDbStorage storage = RocksDbStorage.open(dir);
        Database db = open(storage)) {
      db.createTable(create("warmup"));
      db.deleteTable(new DeleteTableRequest("warmup"));
      spacesBefore = storage.spaces().size();
      descriptorsBefore = openFiles(dir);
      for (int i = 0; i < CYCLES; i++) {
        String name = "table" + i;
        db.createTable(create(name));
        for (int j = 0; j < 20; j++) {
          db.putItem(new PutItemRequest(name, Map.of("pk", AttributeValue.s("k" + j),
              "v", AttributeValue.s("x".repeat(100))), null, null, null, null, null, null, null,
              null, null));
        }
        db.deleteTable(new DeleteTableRequest(name));
      }
      // Every deleted table's stream is still readable, as DynamoDB keeps it for 24 hours...
      assertThat(streams(db)).hasSize(CYCLES + 1);
      // ... yet none holds a space, a file or a descriptor of its own.
      assertThat(storage.spaces()).hasSizeLessThanOrEqualTo(spacesBefore);
      assertThat(storage.spaces()).contains(StreamDefinition.SHARED_SPACE);
      assertThat(openFiles(dir)).isLessThan(descriptorsBefore + 16);
      assertThat(storage.stats(StreamDefinition.SHARED_SPACE).records())
          .isEqualTo((CYCLES + 0L) * 20);
    }
    try (RocksDbStorage storage = RocksDbStorage.open(dir);
        Database db = open(storage)) {
      assertThat(streams(db)).hasSize(CYCLES + 1);
      assertThat(storage.spaces()).hasSizeLessThanOrEqualTo(spacesBefore);
      assertThat(openFiles(dir)).isLessThan(descriptorsBefore + 16);
      assertThat(sstFiles(dir)).isLessThan(16);
    }
    // A day later, a restart forgets them: no stream is listed and no record is left.
    clock.advance(Duration.ofHours(25));
    try (RocksDbStorage storage = RocksDbStorage.open(dir);
        Database db = open(storage)) {
      assertThat(storage.stats(StreamDefinition.SHARED_SPACE).records()).isZero();
      assertThat(streams(db)).isEmpty();
    }
  }

  private Database open(RocksDbStorage storage) {
    return Stator.open(storage, EngineOptions.defaults().withClock(clock));
  }

  /** Every stream ListStreams lists, page by page. */
  private static List<String> streams(Database db) {
    List<String> arns = new ArrayList<>();
    String after = null;
    do {
      ListStreamsResponse page =
          ((DynamoDbStreams) db).listStreams(new ListStreamsRequest(null, null, after));
      page.streams().forEach(s -> arns.add(s.streamArn()));
      after = page.lastEvaluatedStreamArn();
    } while (after != null);
    return arns;
  }

  private static CreateTableRequest create(String name) {
    return new CreateTableRequest(
        name, List.of(new AttributeDefinition("pk", "S")),
        List.of(new KeySchemaElement("pk", "HASH")), null, null, "PAY_PER_REQUEST",
        null, new StreamSpecification(true, "NEW_IMAGE"), null, null, null, null, null, null);
  }

  /** The descriptors this process has open on files of the store. */
  static long openFiles(Path store) throws IOException {
    String prefix = store.toRealPath().toString();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().startsWith(prefix);
        } catch (IOException e) {
          return false; // closed meanwhile
        }
      }).count();
    }
  }

  static long sstFiles(Path store) throws IOException {
    try (Stream<Path> files = Files.list(store)) {
      return files.filter(f -> f.toString().endsWith(".sst")).count();
    }
  }
}
