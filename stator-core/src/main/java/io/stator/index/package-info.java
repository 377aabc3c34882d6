/**
 * Secondary indexes: the one write hook every write path calls before committing ({@link
 * io.stator.index.Indexes#stage}), index keys and entries, the change log and the {@link
 * io.stator.index.Propagator} that keeps global secondary indexes converging to their table,
 * the {@link io.stator.index.Backfill} of an index added by UpdateTable, and the item collection
 * sizes of tables with local secondary indexes.
 */
package io.stator.index;
