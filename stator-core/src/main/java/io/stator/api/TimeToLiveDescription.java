package io.stator.api;

/**
 * The Time to Live setting of a table: status ENABLED or DISABLED (Stator applies a change at
 * once, so it never reports DynamoDB's transitional ENABLING and DISABLING), and the attribute
 * name while enabled.
 */
public record TimeToLiveDescription(
    String timeToLiveStatus,
    String attributeName) {}
