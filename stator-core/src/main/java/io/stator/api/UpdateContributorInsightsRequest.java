package io.stator.api;

/**
 * UpdateContributorInsights: ENABLE or DISABLE Contributor Insights on a table ({@code
 * indexName} null) or one of its global secondary indexes. {@code tableName} may be the table's
 * ARN. {@code contributorInsightsMode} is ACCESSED_AND_THROTTLED_KEYS (the default) or
 * THROTTLED_KEYS.
 */
public record UpdateContributorInsightsRequest(
    String tableName,
    String indexName,
    String contributorInsightsAction,
    String contributorInsightsMode) {}
