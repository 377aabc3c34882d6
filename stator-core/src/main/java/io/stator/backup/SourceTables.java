package io.stator.backup;

import io.stator.api.TableDescription;
import io.stator.schema.TableDefinition;

/** What backups need of the engine's tables. */
public interface SourceTables {
  /** The table's current definition; ResourceNotFoundException when there is none. */
  TableDefinition definition(String tableName);

  /** DescribeTable's description of a definition. */
  TableDescription describe(TableDefinition table);
}
