package io.stator.capacity;

import io.stator.api.ContributorInsightsSummary;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeContributorInsightsResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ListContributorInsightsRequest;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateContributorInsightsResponse;
import io.stator.schema.Constraints;
import io.stator.schema.ContributorInsights;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * DynamoDB's rules for UpdateContributorInsights, DescribeContributorInsights and
 * ListContributorInsights.
 *
 * <p>On DynamoDB, Contributor Insights creates CloudWatch Contributor Insights rules that rank
 * the most accessed and the most throttled keys of a table or global secondary index. Stator
 * keeps the setting in the catalog and answers these operations as DynamoDB does; the ranking
 * itself is what the capacity model's hot-key report already shows, per partition, for every
 * table and global secondary index whether or not the setting is enabled (see {@link
 * PartitionReport}); a GSI's report ranks its own partition keys on its own partitions. Every
 * request is counted (none is sampled); with requests from several threads the per-thread
 * sketches are merged as {@link HotKeyLanes} describes.
 *
 * <p>Status: DynamoDB answers an update with ENABLING or DISABLING and gets to ENABLED or
 * DISABLED shortly after. Stator applies the change at once, so the update answers the
 * transitional status, as DynamoDB does, and the next describe the final one. A table or index
 * whose setting was never changed is DISABLED, with no LastUpdateDateTime.
 *
 * <p>Rule names: DynamoDB names the rules {@code DynamoDBContributorInsights-<kind>-<table>-
 * <epoch millis of their creation>}, where kind is PKC and PKT (most accessed and most
 * throttled partition keys) and, when the key schema has a sort key, SKC and SKT (the same for
 * partition and sort key together), listed PKC, SKC, PKT, SKT. THROTTLED_KEYS mode keeps only
 * the throttled-key rules. For a global secondary index, the index name follows the table name
 * and the sort-key rules follow the index's own key schema (our reading: DynamoDB's own
 * documentation shows table rules only).
 *
 * <p>A global secondary index's setting lives with the table's in the catalog and goes with the
 * index: deleting the index forgets it (see {@link TableDefinition#withIndexes}).
 */
public final class ContributorInsightsUpdates {
  /** ContributorInsightsMode values; the first is the default. */
  public static final String ACCESSED_AND_THROTTLED_KEYS = "ACCESSED_AND_THROTTLED_KEYS";

  public static final String THROTTLED_KEYS = "THROTTLED_KEYS";

  private static final String RULE_PREFIX = "DynamoDBContributorInsights-";

  /** ListContributorInsights returns at most 100 summaries a page. */
  static final int MAX_RESULTS = 100;

  private ContributorInsightsUpdates() {}

  // ---- validation ---------------------------------------------------------------------------

  public static void checkRequest(UpdateContributorInsightsRequest r) {
    Constraints c = checkTableArn(r.tableName());
    indexName(c, r.indexName());
    c.notNull("contributorInsightsAction", r.contributorInsightsAction());
    c.oneOf("contributorInsightsAction", r.contributorInsightsAction(), "ENABLE", "DISABLE");
    c.oneOf("contributorInsightsMode", r.contributorInsightsMode(),
        THROTTLED_KEYS, ACCESSED_AND_THROTTLED_KEYS); // DynamoDB's order in its message
    c.check();
  }

  public static void checkRequest(DescribeContributorInsightsRequest r) {
    Constraints c = checkTableArn(r.tableName());
    indexName(c, r.indexName());
    c.check();
  }

  /**
   * An index name's length is refused with a sentence of its own, as DynamoDB is recorded to
   * answer these operations (not as a constraint of the request); its characters as a
   * constraint.
   */
  private static void indexName(Constraints c, String indexName) {
    if (indexName != null && (indexName.length() < 3 || indexName.length() > 255)) {
      throw DynamoDbException.validation(
          "IndexName must be at least 3 characters long and at most 255 characters long");
    }
    c.name("indexName", indexName);
  }

  public static void checkRequest(ListContributorInsightsRequest r) {
    Constraints c = new Constraints();
    if (r.tableName() != null) {
      int length = r.tableName().length();
      c.lengthAtLeast("tableName", r.tableName(), length, 1);
      c.lengthAtMost("tableName", r.tableName(), length, 1024);
    }
    c.atMost("maxResults", r.maxResults(), MAX_RESULTS);
    c.check();
  }

  /**
   * TableName is a TableArn shape here (and in the continuous-backup operations): a name or an
   * ARN of 1 to 1,024 characters.
   */
  public static Constraints checkTableArn(String tableName) {
    Constraints c = new Constraints().notNull("tableName", tableName);
    if (tableName != null) {
      c.lengthAtLeast("tableName", tableName, tableName.length(), 1);
      c.lengthAtMost("tableName", tableName, tableName.length(), 1024);
    }
    return c;
  }

  /**
   * The table name in a TableName parameter, which may be the table's ARN ({@code
   * arn:aws:dynamodb:<region>:<account>:table/<name>}).
   */
  public static String tableNameOf(String tableNameOrArn) {
    int table = tableNameOrArn.startsWith("arn:") ? tableNameOrArn.indexOf(":table/") : -1;
    if (table < 0) {
      return tableNameOrArn;
    }
    String name = tableNameOrArn.substring(table + ":table/".length());
    int slash = name.indexOf('/');
    return slash < 0 ? name : name.substring(0, slash);
  }

  /**
   * Refuses an index the table does not have as a global secondary index. Contributor Insights
   * applies to a table and its global secondary indexes only (IndexName is "the global secondary
   * index name"), so the name of a local secondary index is refused like an unknown one (wording
   * not confirmed against DynamoDB).
   */
  public static void checkIndex(TableDefinition table, String indexName) {
    if (indexName == null) {
      return;
    }
    IndexDefinition index = table.index(indexName);
    if (index == null || !index.global()) {
      throw DynamoDbException.resourceNotFound(
          "Requested resource not found: Index: " + indexName + " not found for table: "
              + table.name());
    }
  }

  // ---- operations ---------------------------------------------------------------------------

  /** The table's settings after {@code r} is applied at {@code now}. */
  public static List<ContributorInsights> apply(
      TableDefinition table, UpdateContributorInsightsRequest r, Instant now) {
    checkIndex(table, r.indexName());
    boolean enable = r.contributorInsightsAction().equals("ENABLE");
    ContributorInsights current = table.contributorInsights(r.indexName());
    String mode = r.contributorInsightsMode() != null
        ? r.contributorInsightsMode()
        : current != null ? current.mode() : ACCESSED_AND_THROTTLED_KEYS;
    ContributorInsights updated;
    if (current != null && current.enabled() == enable && current.mode().equals(mode)) {
      updated = current; // nothing changes, nor does the time of the last change
    } else {
      updated = new ContributorInsights(r.indexName(), enable, mode, now);
    }
    List<ContributorInsights> out = new ArrayList<>();
    for (ContributorInsights c : table.contributorInsights()) {
      if (c != current) {
        out.add(c);
      }
    }
    out.add(updated);
    return out;
  }

  /** UpdateContributorInsights' answer once the change is recorded. */
  public static UpdateContributorInsightsResponse updated(
      TableDefinition table, UpdateContributorInsightsRequest r) {
    ContributorInsights c = table.contributorInsights(r.indexName());
    return new UpdateContributorInsightsResponse(
        table.name(), r.indexName(), c.enabled() ? "ENABLING" : "DISABLING",
        c.enabled() ? c.mode() : null);
  }

  public static DescribeContributorInsightsResponse describe(
      TableDefinition table, String indexName) {
    checkIndex(table, indexName);
    ContributorInsights c = table.contributorInsights(indexName);
    if (c == null) {
      return new DescribeContributorInsightsResponse(
          table.name(), indexName, null, "DISABLED", null, null, null);
    }
    return new DescribeContributorInsightsResponse(
        table.name(), indexName, c.enabled() ? rules(table, c) : null,
        c.enabled() ? "ENABLED" : "DISABLED", c.lastUpdateDateTime(), null,
        c.enabled() ? c.mode() : null);
  }

  /**
   * The summaries of a table and its global secondary indexes, the table first and then its
   * indexes in definition order: all of them when {@code table} was named in the request, else
   * only those where Contributor Insights is enabled.
   */
  public static List<ContributorInsightsSummary> summaries(
      TableDefinition table, boolean named) {
    List<ContributorInsightsSummary> out = new ArrayList<>();
    summary(table, null, named, out);
    for (IndexDefinition index : table.indexes()) {
      if (index.global()) {
        summary(table, index.name(), named, out);
      }
    }
    return out;
  }

  private static void summary(
      TableDefinition table, String indexName, boolean named,
      List<ContributorInsightsSummary> out) {
    ContributorInsights c = table.contributorInsights(indexName);
    boolean enabled = c != null && c.enabled();
    if (named || enabled) {
      out.add(new ContributorInsightsSummary(
          table.name(), indexName, enabled ? "ENABLED" : "DISABLED", enabled ? c.mode() : null));
    }
  }

  /** Parses a NextToken of ListContributorInsights: the number of summaries already listed. */
  public static int offset(String nextToken) {
    if (nextToken == null) {
      return 0;
    }
    try {
      int offset = Integer.parseInt(nextToken);
      if (offset >= 0) {
        return offset;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw DynamoDbException.validation("Invalid NextToken");
  }

  /** The page size of a ListContributorInsights: MaxResults, or 100. */
  public static int limit(Integer maxResults) {
    return maxResults == null || maxResults < 1 ? MAX_RESULTS : maxResults;
  }

  /**
   * The names of the rules DynamoDB creates for an enabled setting, in its order; the sort-key
   * rules follow the key schema of the table or of the index.
   */
  static List<String> rules(TableDefinition table, ContributorInsights c) {
    String subject = table.name() + (c.indexName() == null ? "" : "-" + c.indexName());
    String suffix = subject + "-" + c.lastUpdateDateTime().toEpochMilli();
    boolean sortKey = c.indexName() == null
        ? table.hasRangeKey()
        : table.index(c.indexName()).hasRangeKey();
    List<String> rules = new ArrayList<>();
    if (!c.mode().equals(THROTTLED_KEYS)) {
      rules.add(RULE_PREFIX + "PKC-" + suffix);
      if (sortKey) {
        rules.add(RULE_PREFIX + "SKC-" + suffix);
      }
    }
    rules.add(RULE_PREFIX + "PKT-" + suffix);
    if (sortKey) {
      rules.add(RULE_PREFIX + "SKT-" + suffix);
    }
    return rules;
  }
}
