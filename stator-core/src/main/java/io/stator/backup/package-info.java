/**
 * On-demand backups: CreateBackup, DescribeBackup, ListBackups, DeleteBackup and
 * RestoreTableFromBackup.
 *
 * <p>A backup is a copy of its table's items made by the storage at one instant ({@code
 * Storage.copySpace}; not one instant on Cassandra, see {@code docs/cassandra.md}) into a space
 * of its own, {@code backup.<id>}, and a record in the space {@code backups} with the table's
 * definition as it was (the catalog's encoding). Both are the storage's, so a backup survives a
 * restart and outlives its table. The indexes are not copied: an index is a projection of the
 * items, and a restore builds each index it asks for from the items, which makes it the index of
 * the backup's instant.
 */
package io.stator.backup;
