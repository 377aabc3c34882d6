package io.stator.api;

/** UpdateContributorInsights' answer: the status the change moves to (ENABLING, DISABLING). */
public record UpdateContributorInsightsResponse(
    String tableName,
    String indexName,
    String contributorInsightsStatus,
    String contributorInsightsMode) {}
