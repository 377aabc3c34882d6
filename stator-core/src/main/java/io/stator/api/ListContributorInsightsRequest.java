package io.stator.api;

/**
 * ListContributorInsights: of one table and its global indexes, or (no {@code tableName}) of
 * every table and index where it is enabled; up to {@code maxResults} (at most 100) a page.
 */
public record ListContributorInsightsRequest(
    String tableName, String nextToken, Integer maxResults) {}
