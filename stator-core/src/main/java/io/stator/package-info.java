/**
 * Stator: a DynamoDB-compatible database. {@link io.stator.Stator} opens a {@link
 * io.stator.api.Database} over a storage (in memory, or any {@link io.stator.storage.Storage}),
 * with the {@link io.stator.engine.EngineOptions} a caller chooses.
 */
package io.stator;
