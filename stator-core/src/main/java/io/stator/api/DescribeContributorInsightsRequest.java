package io.stator.api;

/** DescribeContributorInsights of a table ({@code indexName} null) or a global index. */
public record DescribeContributorInsightsRequest(String tableName, String indexName) {}
