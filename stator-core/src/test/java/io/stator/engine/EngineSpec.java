package io.stator.engine;

import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * One configuration an engine test runs in (Caffeine's {@code @CacheSpec} pattern): a storage
 * and the engine options that change how writes reach the indexes. {@link EngineTest}s run once
 * per spec of {@link #all()}, from one test body.
 *
 * <p>In stator-core the specs are the in-memory storage with synchronous GSIs (the default) and
 * with every GSI write asynchronous through the change log. A storage module adds its own
 * storage by a {@link Provider} registered with {@link ServiceLoader} in its tests, and runs the
 * core's engine tests on it with the system property {@value #STORAGE_PROPERTY} naming it.
 *
 * @param name shown in the test report
 * @param storage opens the storage in a fresh directory
 * @param options the engine options, from the defaults
 * @param contendedRounds the share of their rounds that the tests racing threads on one item run
 *     (1 on a local storage): on a networked storage each contended round costs every thread a
 *     round trip and most of them a conflict, so the full count would take minutes while fewer
 *     rounds check the same invariant
 */
public record EngineSpec(
    String name,
    Function<Path, Storage> storage,
    UnaryOperator<EngineOptions> options,
    double contendedRounds) {

  /** A spec that runs every round of the contended tests. */
  public EngineSpec(
      String name, Function<Path, Storage> storage, UnaryOperator<EngineOptions> options) {
    this(name, storage, options, 1);
  }

  /** Names the storage whose specs run, instead of the in-memory ones. */
  public static final String STORAGE_PROPERTY = "stator.test.storage";

  /** The specs of a storage module's tests. */
  public interface Provider {
    /** The storage's name, as {@value #STORAGE_PROPERTY} names it. */
    String storage();

    List<EngineSpec> specs();
  }

  /** The specs of this run. */
  public static Stream<EngineSpec> all() {
    String storage = System.getProperty(STORAGE_PROPERTY);
    if (storage == null || storage.isBlank() || storage.equals("memory")) {
      return Stream.of(
          new EngineSpec("memory", dir -> new MemoryStorage(), options -> options),
          new EngineSpec(
              "memory, asynchronous GSIs",
              dir -> new MemoryStorage(),
              options -> options.withSynchronousGlobalIndexes(false)));
    }
    List<EngineSpec> specs = new ArrayList<>();
    for (Provider provider : ServiceLoader.load(Provider.class)) {
      if (provider.storage().equals(storage)) {
        specs.addAll(provider.specs());
      }
    }
    if (specs.isEmpty()) {
      throw new IllegalStateException("no engine specs for the storage " + storage);
    }
    return specs.stream();
  }

  /** Opens an engine of this spec with options derived from {@code base}. */
  public Engine open(Path dir, EngineOptions base) {
    return new Engine(storage.apply(dir), options.apply(base));
  }

  /** {@code rounds} scaled by {@link #contendedRounds}, at least one. */
  public int contended(int rounds) {
    return Math.max(1, (int) Math.round(rounds * contendedRounds));
  }

  @Override
  public String toString() {
    return name;
  }
}
