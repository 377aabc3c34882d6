package io.stator.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Base of the engine tests that hold in every configuration: each subclass runs once per {@link
 * EngineSpec} (storage and index options), with a fresh engine for each test, and after each
 * test every index of every table is checked to be its table's projection ({@link
 * IndexInvariants}), whatever the test asserted itself.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.stator.engine.EngineSpec#all")
@Tag(EngineTest.TAG)
public abstract class EngineTest {
  /** Marks the tests a storage module reruns on its own storage. */
  public static final String TAG = "engine-spec";

  @Parameter EngineSpec spec;
  @TempDir Path dir;

  /** The engine under test, opened before each test. */
  protected Engine db;

  /** The options the engine is opened with, before the spec changes them. */
  protected EngineOptions options() {
    return EngineOptions.defaults();
  }

  @BeforeEach
  void openEngine() {
    db = spec.open(dir, options());
  }

  @AfterEach
  void checkAndCloseEngine() {
    try {
      IndexInvariants.checkAll(db);
    } finally {
      db.close();
    }
  }
}
