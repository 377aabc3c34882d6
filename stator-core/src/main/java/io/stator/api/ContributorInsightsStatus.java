package io.stator.api;

/**
 * The values of DynamoDB's {@code ContributorInsightsStatus}, each constant named as on the wire:
 * its {@code name()} is the string a request or response record holds.
 */
public enum ContributorInsightsStatus {
  ENABLING,
  ENABLED,
  DISABLING,
  DISABLED,
  FAILED
}
