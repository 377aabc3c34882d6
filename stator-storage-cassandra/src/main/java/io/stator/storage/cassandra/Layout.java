package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import io.stator.storage.StorageException;
import java.time.Duration;
import java.util.Optional;

/**
 * Stator's tables in a keyspace, and the version of their layout, which the keyspace records in
 * {@code schema_version} so that a release never reads, nor writes into, a layout it does not
 * know.
 *
 * <ul>
 *   <li>Version 1 (no {@code schema_version} table): {@code records ((space), partition, sort)},
 *       each space one Cassandra partition.
 *   <li>Version 2: {@code records ((space, bucket), partition, sort)}, each space spread over 256
 *       Cassandra partitions by the first byte of its partition keys (see {@link
 *       CassandraStorage}).
 *   <li>Version 3: version 2 with each record's {@code size} (its key and value bytes), so that
 *       a space's figures are read without its values.
 * </ul>
 *
 * A keyspace of another version is refused with what to do: nothing migrates one layout to the
 * other, so Stator starts on a new keyspace.
 */
final class Layout {
  /** The layout this release writes and reads. */
  static final int VERSION = 3;

  static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);

  private static final String FIRST_LAYOUT =
      "Stator's first layout, each table in one Cassandra partition";

  private Layout() {}

  /**
   * Creates the keyspace and the tables of this layout where they are missing, and refuses a
   * keyspace of another layout. The version is written first, so that a keyspace left half made
   * is finished by the next start rather than taken for an older one.
   */
  static void create(CqlSession session, String keyspace, String replication) {
    Optional<KeyspaceMetadata> metadata = session.getMetadata().getKeyspace(keyspace);
    if (metadata.isPresent()) {
      boolean records = metadata.get().getTable("records").isPresent();
      boolean versioned = metadata.get().getTable("schema_version").isPresent();
      if (records && !versioned) {
        throw refused(keyspace, FIRST_LAYOUT);
      }
      Optional<Integer> version = versioned ? recorded(session, keyspace) : Optional.empty();
      if (version.isPresent() && version.get() != VERSION) {
        throw refused(keyspace, "Stator's layout version " + version.get());
      }
      if (records && version.isEmpty()) {
        throw refused(keyspace, "Stator's tables but no layout version");
      }
      if (records
          && metadata.get().getTable("spaces").isPresent()
          && metadata.get().getTable("versions").isPresent()) {
        return;
      }
    }
    ddl(session, "CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + replication);
    ddl(session,
        "CREATE TABLE IF NOT EXISTS " + keyspace + ".schema_version ("
            + " name text PRIMARY KEY, version int)"
            + " WITH transactional_mode = 'full'");
    session.execute(SimpleStatement.newInstance(
        "INSERT INTO " + keyspace + ".schema_version (name, version) VALUES ('layout', ?)",
        VERSION));
    ddl(session,
        "CREATE TABLE IF NOT EXISTS " + keyspace + ".spaces ("
            + " store text, name text, id uuid, PRIMARY KEY ((store), name))"
            + " WITH transactional_mode = 'full'");
    ddl(session,
        "CREATE TABLE IF NOT EXISTS " + keyspace + ".records ("
            + " space uuid, bucket int, partition blob, sort blob, version bigint, value blob,"
            + " size int,"
            + " PRIMARY KEY ((space, bucket), partition, sort))"
            + " WITH transactional_mode = 'full'");
    ddl(session,
        "CREATE TABLE IF NOT EXISTS " + keyspace + ".versions ("
            + " store text PRIMARY KEY, ceiling bigint)"
            + " WITH transactional_mode = 'full'");
  }

  /** Refuses a keyspace whose layout is not this release's. */
  static void check(CqlSession session, String keyspace) {
    Optional<KeyspaceMetadata> metadata = session.getMetadata().getKeyspace(keyspace);
    if (metadata.isEmpty()) {
      throw new StorageException("Cassandra: no keyspace " + keyspace);
    }
    if (metadata.get().getTable("schema_version").isEmpty()) {
      throw refused(keyspace, metadata.get().getTable("records").isPresent()
          ? FIRST_LAYOUT : "none of Stator's tables");
    }
    Optional<Integer> version = recorded(session, keyspace);
    if (version.isEmpty()) {
      throw refused(keyspace, "Stator's tables but no layout version");
    }
    if (version.get() != VERSION) {
      throw refused(keyspace, "Stator's layout version " + version.get());
    }
  }

  /** The layout version the keyspace records, if it records one. */
  private static Optional<Integer> recorded(CqlSession session, String keyspace) {
    Row row = session.execute(SimpleStatement.newInstance(
        "SELECT version FROM " + keyspace + ".schema_version WHERE name = 'layout'")).one();
    return row == null || row.isNull(0) ? Optional.empty() : Optional.of(row.getInt(0));
  }

  private static StorageException refused(String keyspace, String holds) {
    return new StorageException(
        "Cassandra keyspace " + keyspace + " holds " + holds + ", and this Stator reads only"
            + " layout version " + VERSION + " (each table spread over 256 Cassandra partitions);"
            + " nothing converts one to the other: start Stator on a new keyspace (--keyspace)");
  }

  private static void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
  }
}
