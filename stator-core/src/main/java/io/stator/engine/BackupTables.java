package io.stator.engine;

import io.stator.api.CreateTableRequest;
import io.stator.api.TableDescription;
import io.stator.backup.SourceTables;
import io.stator.schema.TableDefinition;
import io.stator.value.AttributeValue;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/** The engine's tables as backups see them: read, described, created, changed, restored into. */
final class BackupTables implements SourceTables {
  private final Tables tables;
  private final Items items;

  BackupTables(Tables tables, Items items) {
    this.tables = tables;
    this.items = items;
  }

  @Override
  public TableDefinition definition(String tableName) {
    return tables.definition(tableName);
  }

  @Override
  public TableDescription describe(TableDefinition table) {
    return tables.describe(table);
  }

  @Override
  public TableDescription create(CreateTableRequest request, UnaryOperator<TableDefinition> adjust) {
    return tables.create(request, adjust).tableDescription();
  }

  @Override
  public TableDefinition change(String tableName, UnaryOperator<TableDefinition> change) {
    return tables.change(tableName, change);
  }

  @Override
  public boolean removeCreating(String tableName, Predicate<TableDefinition> which) {
    return tables.deleteCreating(tableName, which);
  }

  @Override
  public void restore(String tableName, Map<String, AttributeValue> item) {
    items.restore(tableName, item);
  }

  @Override
  public void putImported(String tableName, Map<String, AttributeValue> item) {
    items.putImported(tableName, item);
  }
}
