package io.stator.api;

/**
 * The values of DynamoDB's {@code ContributorInsightsMode}, each constant named as on the wire:
 * its {@code name()} is the string a request or response record holds.
 */
public enum ContributorInsightsMode {
  ACCESSED_AND_THROTTLED_KEYS,
  THROTTLED_KEYS
}
