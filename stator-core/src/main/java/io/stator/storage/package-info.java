/**
 * The storage SPI: named spaces of ordered, versioned records, point and range reads, and one
 * write primitive, a {@link io.stator.storage.Commit} across spaces that applies all together
 * only if every expected version holds. Every storage (memory, RocksDB, and any distributed one)
 * passes the same contract suite.
 */
package io.stator.storage;
