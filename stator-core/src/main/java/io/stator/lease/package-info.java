/**
 * Leases: which engine of those sharing a storage runs a background job (the Time to Live
 * sweep, GSI backfills, the housekeeping, each export and import), held by records in the storage
 * itself.
 */
package io.stator.lease;
