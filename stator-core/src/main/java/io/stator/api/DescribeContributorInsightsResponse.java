package io.stator.api;

import java.time.Instant;
import java.util.List;

/**
 * DescribeContributorInsights' answer. Null members are absent, as on the wire: the rule list
 * only while enabled, LastUpdateDateTime once the setting was ever changed.
 */
public record DescribeContributorInsightsResponse(
    String tableName,
    String indexName,
    List<String> contributorInsightsRuleList,
    String contributorInsightsStatus,
    Instant lastUpdateDateTime,
    FailureException failureException,
    String contributorInsightsMode) {}
