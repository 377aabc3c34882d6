/**
 * The durable default storage: {@link io.stator.storage.rocksdb.RocksDbStorage}, the storage SPI
 * on one embedded RocksDB database, one column family per space, with an exact cache of recent
 * records in front of it.
 */
package io.stator.storage.rocksdb;
