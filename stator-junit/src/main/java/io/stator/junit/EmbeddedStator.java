package io.stator.junit;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.capacity.CapacityMode;
import io.stator.engine.EngineOptions;
import io.stator.index.IndexPropagation;
import io.stator.server.StatorServer;
import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;
import io.stator.storage.rocksdb.RocksDbStorage;
import io.stator.ttl.ExpiredItemSweep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A Stator server in this JVM, for tests: an HTTP endpoint that AWS SDKs, the AWS CLI and any
 * DynamoDB client can call, on a free port of the loopback address, over an in-memory store (or
 * RocksDB in a directory of its own, removed on close). For JUnit 5, {@link StatorTest} starts
 * one for you; other frameworks start and close one themselves:
 *
 * <pre>{@code
 * try (EmbeddedStator stator = EmbeddedStator.builder().start()) {
 *   DynamoDbClient dynamo = DynamoDbClient.builder()
 *       .endpointOverride(stator.endpoint())
 *       .region(Region.US_EAST_1)
 *       .credentialsProvider(StaticCredentialsProvider.create(
 *           AwsBasicCredentials.create("local", "local")))
 *       .build();
 *   ...
 * }
 * }</pre>
 */
public final class EmbeddedStator implements AutoCloseable {
  private final StatorServer server;
  private final Database database;
  private final Path directory;

  private EmbeddedStator(StatorServer server, Database database, Path directory) {
    this.server = server;
    this.database = database;
    this.directory = directory;
  }

  /** Starts one with the defaults: in memory, capacity observed, GSIs written synchronously. */
  public static EmbeddedStator start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The HTTP endpoint, {@code http://127.0.0.1:PORT}, for an SDK's {@code endpointOverride}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  public int port() {
    return server.port();
  }

  /** The same store without HTTP: Stator's embedded API. */
  public Database database() {
    return database;
  }

  /**
   * Waits until every global secondary index has applied every write so far (with a GSI lag,
   * or while a GSI added by UpdateTable is backfilled): what a test calls before it reads a GSI
   * instead of sleeping. False if that took longer than {@code timeout}.
   */
  public boolean awaitIndexes(Duration timeout) throws InterruptedException {
    return ((IndexPropagation) database).awaitIndexes(timeout);
  }

  /**
   * Deletes now every item whose Time to Live has passed, as the background sweep would later;
   * returns how many.
   */
  public long sweepExpiredItems() {
    return ((ExpiredItemSweep) database).sweepExpiredItems();
  }

  /** Stops the server, closes the store and removes a RocksDB store's directory. */
  @Override
  public void close() {
    server.close();
    if (directory != null) {
      try (Stream<Path> paths = Files.walk(directory)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** How an {@link EmbeddedStator} stores and behaves. */
  public static final class Builder {
    private StorageKind storage = StorageKind.MEMORY;
    private CapacityMode capacity = CapacityMode.OBSERVE;
    private boolean synchronousGlobalIndexes = true;
    private Duration gsiLag = Duration.ZERO;
    private Duration timeToLiveSweep;
    private String region = "us-east-1";

    private Builder() {}

    /** In memory (the default) or durable in RocksDB, in a temporary directory. */
    public Builder storage(StorageKind storage) {
      this.storage = storage;
      return this;
    }

    /**
     * {@link CapacityMode#OBSERVE} (the default) counts capacity and never throttles; {@link
     * CapacityMode#ENFORCE} throttles as DynamoDB does, to test a client's retries.
     */
    public Builder capacity(CapacityMode capacity) {
      this.capacity = capacity;
      return this;
    }

    /**
     * Whether a write updates the table's GSIs before it answers (the default, so a test reads
     * its own writes through an index), or later, as DynamoDB's eventually consistent GSIs do.
     */
    public Builder synchronousGlobalIndexes(boolean synchronous) {
      this.synchronousGlobalIndexes = synchronous;
      return this;
    }

    /** With asynchronous GSIs, how long a write takes to reach them. */
    public Builder gsiLag(Duration lag) {
      this.gsiLag = lag;
      return this;
    }

    /** How often expired items are deleted (by default, as the engine's default). */
    public Builder timeToLiveSweep(Duration interval) {
      this.timeToLiveSweep = interval;
      return this;
    }

    public Builder region(String region) {
      this.region = region;
      return this;
    }

    public EmbeddedStator start() {
      EngineOptions options = EngineOptions.defaults()
          .withRegion(region)
          .withCapacityMode(capacity)
          .withSynchronousGlobalIndexes(synchronousGlobalIndexes);
      if (!gsiLag.isZero()) {
        options = options.withGsiLag(gsiLag);
      }
      if (timeToLiveSweep != null) {
        options = options.withTimeToLiveSweepInterval(timeToLiveSweep);
      }
      Path directory = null;
      Storage store;
      if (storage == StorageKind.ROCKSDB) {
        try {
          directory = Files.createTempDirectory("stator-");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        store = RocksDbStorage.open(directory, RocksDbStorage.MIN_MEMORY_BYTES);
      } else {
        store = new MemoryStorage();
      }
      Database database = Stator.open(store, options);
      StatorServer server = StatorServer.start("127.0.0.1", 0, database, region);
      return new EmbeddedStator(server, database, directory);
    }
  }

  /** Where an embedded Stator keeps its items. */
  public enum StorageKind {
    MEMORY,
    ROCKSDB
  }
}
