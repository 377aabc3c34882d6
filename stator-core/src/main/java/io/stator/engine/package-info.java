/**
 * The engine: {@link io.stator.engine.Engine} implements every operation of the API over a
 * storage, delegating to one class per family of operations (tables, items, updates, batches,
 * transactions, queries and scans). Every write reads, computes, and commits with the version it
 * read, retrying on conflict; see the essays on {@code Engine} and {@code Transactions}.
 */
package io.stator.engine;
