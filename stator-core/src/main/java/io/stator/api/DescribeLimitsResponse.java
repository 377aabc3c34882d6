package io.stator.api;

/** The provisioned-capacity quotas of the account in the region and of one table. */
public record DescribeLimitsResponse(
    Long accountMaxReadCapacityUnits,
    Long accountMaxWriteCapacityUnits,
    Long tableMaxReadCapacityUnits,
    Long tableMaxWriteCapacityUnits) {}
