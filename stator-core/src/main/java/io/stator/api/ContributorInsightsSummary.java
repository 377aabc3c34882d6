package io.stator.api;

/** One table or global index in ListContributorInsights. */
public record ContributorInsightsSummary(
    String tableName,
    String indexName,
    String contributorInsightsStatus,
    String contributorInsightsMode) {}
