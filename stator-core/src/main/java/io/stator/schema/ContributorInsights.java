package io.stator.schema;

import java.time.Instant;

/**
 * The Contributor Insights setting of a table or of one of its global secondary indexes, as the
 * catalog keeps it.
 *
 * @param indexName the global secondary index, or null for the table itself
 * @param enabled whether Contributor Insights is enabled
 * @param mode ACCESSED_AND_THROTTLED_KEYS or THROTTLED_KEYS (kept while disabled too)
 * @param lastUpdateDateTime when UpdateContributorInsights last changed the setting; while
 *     enabled, also the time its rules were created, which their names carry
 */
public record ContributorInsights(
    String indexName, boolean enabled, String mode, Instant lastUpdateDateTime) {}
