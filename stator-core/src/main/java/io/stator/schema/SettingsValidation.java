package io.stator.schema;

import io.stator.api.CreateTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.SSESpecification;
import io.stator.api.Tag;
import io.stator.api.UpdateTableRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The {@link TableSettings} parts of CreateTable and UpdateTable (deletion protection, table
 * class, SSESpecification, tags), and the rules of tags that TagResource shares.
 *
 * <p>Server-side encryption: DynamoDB encrypts every table. {@code Enabled: true} (SSEType KMS)
 * asks for a KMS key, DynamoDB's AWS managed key unless {@code KMSMasterKeyId} names another,
 * and DescribeTable then shows an SSEDescription; {@code Enabled: false} or no specification
 * means an AWS owned key, which DescribeTable does not show. Stator stores data as it stores
 * it; the setting is recorded and reported, nothing more.
 */
public final class SettingsValidation {
  /** A table has at most 50 user tags. */
  public static final int MAX_TAGS = 50;

  static final String STANDARD = "STANDARD";
  static final String STANDARD_INFREQUENT_ACCESS = "STANDARD_INFREQUENT_ACCESS";

  private SettingsValidation() {}

  /** The request-level constraints of CreateTable's settings, collected with the others. */
  static void constraints(Constraints c, CreateTableRequest r) {
    c.oneOf("tableClass", r.tableClass(), STANDARD, STANDARD_INFREQUENT_ACCESS);
    sseConstraints(c, r.sseSpecification());
    tagConstraints(c, r.tags());
  }

  /** The request-level constraints of UpdateTable's settings. */
  static void constraints(Constraints c, UpdateTableRequest r) {
    c.oneOf("tableClass", r.tableClass(), STANDARD, STANDARD_INFREQUENT_ACCESS);
    sseConstraints(c, r.sseSpecification());
  }

  private static void sseConstraints(Constraints c, SSESpecification sse) {
    if (sse != null) {
      c.oneOf("sSESpecification.sSEType", sse.sseType(), "AES256", "KMS");
    }
  }

  /**
   * The characters AWS allows in a tag's key and value: Unicode letters, digits and white
   * space, and {@code _ . : / = + - @} (DynamoDB's tagging restrictions); reported in AWS's
   * tagging words for it.
   */
  static final String TAG_PATTERN = "[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*";

  private static final Pattern TAG_CHARACTERS = Pattern.compile(TAG_PATTERN);

  /**
   * Each tag's key (1 to 128 characters) and value (0 to 256 characters, required), of the
   * characters AWS allows in tags, reported at {@code tags.<n>.member.key} as DynamoDB's
   * constraint messages name them.
   */
  public static void tagConstraints(Constraints c, List<Tag> tags) {
    if (tags == null) {
      return;
    }
    for (int i = 0; i < tags.size(); i++) {
      Tag t = tags.get(i);
      String path = "tags." + (i + 1) + ".member";
      c.notNull(path + ".key", t.key());
      if (t.key() != null) {
        c.lengthAtLeast(path + ".key", t.key(), t.key().length(), 1);
        c.lengthAtMost(path + ".key", t.key(), t.key().length(), 128);
        tagCharacters(c, path + ".key", t.key());
      }
      c.notNull(path + ".value", t.value());
      if (t.value() != null) {
        c.lengthAtMost(path + ".value", t.value(), t.value().length(), 256);
        tagCharacters(c, path + ".value", t.value());
      }
    }
  }

  /** A tag key's or value's characters. */
  public static void tagCharacters(Constraints c, String path, String text) {
    if (!TAG_CHARACTERS.matcher(text).matches()) {
      c.add(path, text,
          "Member must satisfy regular expression pattern: " + TAG_PATTERN);
    }
  }

  /**
   * The tags after adding {@code added} to {@code current} (a tag of an existing key replaces
   * its value): refuses keys with the {@code aws:} prefix, which AWS reserves for the tags it
   * assigns, and more than {@value #MAX_TAGS} tags in all.
   */
  public static Map<String, String> tagged(Map<String, String> current, List<Tag> added) {
    Map<String, String> tags = new TreeMap<>(current);
    for (Tag t : added) {
      if (t.key().startsWith("aws:")) {
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: Tag keys starting with 'aws:' are"
                + " reserved for system use");
      }
      tags.put(t.key(), t.value());
    }
    if (tags.size() > MAX_TAGS) {
      throw DynamoDbException.validation(
          "One or more parameter values were invalid: The number of tags exceeds the limit of "
              + MAX_TAGS + " per resource");
    }
    return tags;
  }

  /** The settings of a table CreateTable makes, after its constraints passed. */
  static TableSettings create(CreateTableRequest r) {
    Map<String, String> tags =
        r.tags() == null ? Map.of() : tagged(Map.of(), r.tags());
    return new TableSettings(
        Boolean.TRUE.equals(r.deletionProtectionEnabled()),
        r.tableClass(),
        null,
        kmsKey(r.sseSpecification(), null),
        TableSettings.PointInTimeRecovery.OFF,
        new TreeMap<>(tags));
  }

  /**
   * UpdateTable's changes of the settings; {@code table} itself when nothing changes (so an
   * UpdateTable that changes nothing writes nothing).
   */
  public static TableDefinition update(TableDefinition table, UpdateTableRequest r, Instant now) {
    TableSettings s = table.settings();
    TableSettings changed = s;
    if (r.deletionProtectionEnabled() != null) {
      changed = changed.withDeletionProtection(r.deletionProtectionEnabled());
    }
    String currentClass = s.tableClass() == null ? STANDARD : s.tableClass();
    if (r.tableClass() != null && !r.tableClass().equals(currentClass)) {
      changed = changed.withTableClass(r.tableClass(), now);
    }
    if (r.sseSpecification() != null) {
      changed = changed.withKmsMasterKeyId(kmsKey(r.sseSpecification(), s.kmsMasterKeyId()));
    }
    return changed.equals(s) ? table : table.withSettings(changed);
  }

  /**
   * The KMS key a specification asks for: the AWS managed key or the named one when enabled
   * with KMS, none (an AWS owned key) when disabled; {@code current} when it says neither.
   */
  private static String kmsKey(SSESpecification sse, String current) {
    if (sse == null || sse.enabled() == null) {
      return current;
    }
    if (!sse.enabled() || "AES256".equals(sse.sseType())) {
      return null;
    }
    return sse.kmsMasterKeyId() == null ? TableSettings.DEFAULT_KMS_KEY : sse.kmsMasterKeyId();
  }
}
