package io.stator.backup;

import io.stator.api.CreateTableRequest;
import io.stator.api.TableDescription;
import io.stator.schema.TableDefinition;
import io.stator.value.AttributeValue;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What backups, exports and imports need of the engine's tables: those backed up or exported,
 * and those restored or imported into.
 */
public interface SourceTables {
  /** The table's current definition; ResourceNotFoundException when there is none. */
  TableDefinition definition(String tableName);

  /** DescribeTable's description of a definition. */
  TableDescription describe(TableDefinition table);

  /**
   * CreateTable, through the engine's own checks, the definition changed by {@code adjust}
   * before it is recorded; ResourceInUseException when the name is taken.
   */
  TableDescription create(CreateTableRequest request, UnaryOperator<TableDefinition> adjust);

  /** Changes a table's definition, as UpdateTable does. */
  TableDefinition change(String tableName, UnaryOperator<TableDefinition> change);

  /**
   * Deletes the table {@code tableName} if it is still being made (CREATING, which DeleteTable
   * refuses) and {@code which} accepts its definition: a restore that ends without its items,
   * as DynamoDB leaves no half-restored table. No SYSTEM backup is taken of it. False when the
   * table is gone, ACTIVE, or another.
   */
  boolean removeCreating(String tableName, Predicate<TableDefinition> which);

  /** Puts a backed-up item into a table being restored, its indexes with it, uncharged. */
  void restore(String tableName, Map<String, AttributeValue> item);

  /**
   * Puts an imported item into a table being imported: refused as PutItem refuses it (a
   * DynamoDbException), else written with its indexes, uncharged.
   */
  void putImported(String tableName, Map<String, AttributeValue> item);
}
