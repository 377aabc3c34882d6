/**
 * {@link io.stator.storage.memory.MemoryStorage}: the storage SPI in memory, for tests, embedded
 * use and {@code --in-memory}.
 */
package io.stator.storage.memory;
