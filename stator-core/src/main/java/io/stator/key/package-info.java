/**
 * Primary keys as bytes: {@link io.stator.key.KeyCodec} encodes S, N and B key values so that
 * unsigned byte order is DynamoDB's order, and hashes partition keys into the ranges that
 * partitions and parallel scan segments cover.
 */
package io.stator.key;
