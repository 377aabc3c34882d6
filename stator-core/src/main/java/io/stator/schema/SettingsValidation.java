package io.stator.schema;

import io.stator.api.CreateTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.SSESpecification;
import io.stator.api.Tag;
import io.stator.api.UpdateTableRequest;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
   * The characters DynamoDB allows in a tag's key and value: Unicode letters, digits and white
   * space, and {@code _ . : / = + - @} (its tagging restrictions).
   */
  private static final Pattern TAG_CHARACTERS =
      Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

  /**
   * Each tag's key (1 to 128 characters) and value (0 to 256 characters, required), reported
   * at {@code tags.<n>.member.key} as DynamoDB's constraint messages name them.
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
      }
      c.notNull(path + ".value", t.value());
      if (t.value() != null) {
        c.lengthAtMost(path + ".value", t.value(), t.value().length(), 256);
      }
    }
  }

  /** Refuses a tag key of characters DynamoDB does not allow (TagResource, UntagResource). */
  public static void checkTagKey(String key) {
    if (!TAG_CHARACTERS.matcher(key).matches()) {
      throw DynamoDbException.validation("The Tag Key provided is invalid, Key: " + key);
    }
  }

  /**
   * The tags after adding {@code added} to {@code current} (a tag of an existing key replaces
   * its value), refused in DynamoDB's words (as recorded against the service, for CreateTable
   * and TagResource alike): a key or value of other characters than it allows, a key with the
   * {@code aws:} prefix, which AWS reserves for the tags it assigns, a key given twice, and more
   * than {@value #MAX_TAGS} tags in all.
   */
  public static Map<String, String> tagged(Map<String, String> current, List<Tag> added) {
    Map<String, String> tags = new TreeMap<>(current);
    Set<String> given = new HashSet<>();
    for (Tag t : added) {
      checkTagKey(t.key());
      if (!TAG_CHARACTERS.matcher(t.value()).matches()) {
        throw DynamoDbException.validation(
            "The Tag Value provided is invalid, Value: " + t.value());
      }
      if (t.key().startsWith("aws:")) {
        throw DynamoDbException.validation(
            "Tag Key cannot be prefixed with aws:, Key: " + t.key());
      }
      if (!given.add(t.key())) {
        throw DynamoDbException.validation(
            "Duplicate Tag Keys provided as input: Duplicate Tag Key found " + t.key());
      }
      tags.put(t.key(), t.value());
    }
    if (tags.size() > MAX_TAGS) {
      throw DynamoDbException.validation(
          "Number of Tags exceed the current limit for the provided ResourceArn");
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
