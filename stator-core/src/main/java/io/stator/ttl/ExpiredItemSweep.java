package io.stator.ttl;

/**
 * Stator's own operation, not DynamoDB's: delete now every item whose Time to Live has passed,
 * in every table with TTL enabled, instead of waiting for the background sweeper (as in
 * DynamoDB, expired items stay readable until swept). Tests call it so they need not wait.
 *
 * <p>Every database from {@code Stator.open} implements it: {@code ((ExpiredItemSweep)
 * database).sweepExpiredItems()}. It is kept out of {@code Database}, which has exactly
 * DynamoDB's operations.
 */
public interface ExpiredItemSweep {
  /** Sweeps every TTL table from its first item to its last; returns the items deleted. */
  long sweepExpiredItems();
}
