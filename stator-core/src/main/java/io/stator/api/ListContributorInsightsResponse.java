package io.stator.api;

import java.util.List;

/** ListContributorInsights' answer; {@code nextToken} is null on the last page. */
public record ListContributorInsightsResponse(
    List<ContributorInsightsSummary> contributorInsightsSummaries, String nextToken) {}
