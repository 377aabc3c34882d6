/**
 * On-demand backups: CreateBackup, DescribeBackup, ListBackups, DeleteBackup and
 * RestoreTableFromBackup.
 *
 * <p>A backup is a copy of its table's items as they were at one instant, made by the storage
 * where it copies at one instant ({@code Storage.copySpace}), else from the table and the change
 * history its writes keep while the copy is made (see {@code OnDemandBackups}), into a space of
 * its own, {@code backup.<id>}, and a record in the space {@code backups} with the table's
 * definition as it was (the catalog's encoding). Both are the storage's, so a backup survives a
 * restart and outlives its table. The indexes are not copied: an index is a projection of the
 * items, and a restore builds each index it asks for from the items, which makes it the index of
 * the backup's instant.
 */
package io.stator.backup;
