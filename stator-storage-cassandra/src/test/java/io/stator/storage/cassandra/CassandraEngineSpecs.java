package io.stator.storage.cassandra;

import io.stator.engine.EngineSpec;
import java.util.List;

/**
 * The engine tests' spec on Cassandra: the core's {@code EngineTest}s run once more on this
 * storage (the surefire execution {@code engine-on-cassandra} of this module), on the one node of
 * the test JVM ({@link TestCluster}). Each engine is a store of its own, named by the test's fresh
 * directory, so every test starts on an empty storage without any schema change.
 */
public final class CassandraEngineSpecs implements EngineSpec.Provider {
  @Override
  public String storage() {
    return "cassandra";
  }

  @Override
  public List<EngineSpec> specs() {
    return List.of(
        new EngineSpec(
            "cassandra",
            dir -> CassandraStorage.open(TestCluster.session(), TestCluster.KEYSPACE, dir.toString()),
            options -> options,
            // Eight threads incrementing one item: each success costs about eight Accord
            // transactions on one key (one wins, seven conflict), some 30 a second on two cores,
            // so UpdateItemTest's 2,000 increments would take over a minute; a fifth of them
            // checks that none is lost in about 15 s.
            0.2));
  }
}
