package io.stator.schema;

import java.util.List;
import java.util.UUID;

/**
 * The names of the storage spaces that belong to one table, in one place: where each is made
 * and how a name is recognised. Every name starts with its kind and the table's id, so the
 * spaces of a table (and of each incarnation of one of its indexes) never meet another's, and a
 * space no table refers to any more can be told apart from the store's own spaces ({@link
 * Catalog#SPACE}, the leases, the stream writers, ...), which have fixed names of their own.
 *
 * <ul>
 *   <li>{@code table.<tableId>}: the items;
 *   <li>{@code index.<tableId>.<indexName>.<random>}: a secondary index's entries, one space per
 *       incarnation of the index, so a re-created index never sees a deleted one's entries;
 *   <li>{@code changes.<tableId>}: the change log the GSI propagator reads;
 *   <li>{@code collections.<tableId>}: item collection sizes (tables with an LSI);
 *   <li>{@code history.<tableId>}: the change history of point-in-time recovery;
 *   <li>{@code stream.<tableId>.<createdMillis>}: a stream's records, for streams made before
 *       they shared one space;
 *   <li>{@code backup.<backupId>}: an on-demand or system backup's copy of its table's items.
 * </ul>
 */
public final class SpaceNames {
  private static final String TABLE = "table.";
  private static final String INDEX = "index.";
  private static final String CHANGES = "changes.";
  private static final String COLLECTIONS = "collections.";
  private static final String HISTORY = "history.";
  private static final String STREAM = "stream.";
  private static final String BACKUP = "backup.";

  /** The kinds of space that belong to a table (a backup's belongs to the backup). */
  private static final List<String> OF_TABLES =
      List.of(TABLE, INDEX, CHANGES, COLLECTIONS, STREAM, HISTORY);

  private SpaceNames() {}

  public static String table(String tableId) {
    return TABLE + tableId;
  }

  /** A new incarnation's space of the table's index {@code indexName}. */
  public static String newIndex(String tableId, String indexName) {
    return INDEX + tableId + "." + indexName + "." + UUID.randomUUID().toString().substring(0, 8);
  }

  public static String changeLog(String tableId) {
    return CHANGES + tableId;
  }

  public static String itemCollections(String tableId) {
    return COLLECTIONS + tableId;
  }

  public static String history(String tableId) {
    return HISTORY + tableId;
  }

  public static String stream(String tableId, long createdMillis) {
    return STREAM + tableId + "." + createdMillis;
  }

  public static String backup(String backupId) {
    return BACKUP + backupId;
  }

  /** Whether the space is one of some table's (of a live table, a retired one, or no more). */
  public static boolean isOfATable(String space) {
    return OF_TABLES.stream().anyMatch(space::startsWith);
  }

  public static boolean isChangeLog(String space) {
    return space.startsWith(CHANGES);
  }

  public static boolean isItemCollections(String space) {
    return space.startsWith(COLLECTIONS);
  }

  public static boolean isHistory(String space) {
    return space.startsWith(HISTORY);
  }

  public static boolean isBackup(String space) {
    return space.startsWith(BACKUP);
  }
}
