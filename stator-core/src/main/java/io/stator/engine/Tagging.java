package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.ListTagsOfResourceResponse;
import io.stator.api.Tag;
import io.stator.api.TagResourceRequest;
import io.stator.api.TagResourceResponse;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UntagResourceResponse;
import io.stator.schema.Constraints;
import io.stator.schema.SettingsValidation;
import io.stator.schema.TableDefinition;
import io.stator.schema.TableSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * TagResource, UntagResource and ListTagsOfResource on tables, named by ARN. The tags are part
 * of the table's {@link TableSettings} in the catalog, so they go with the table when it is
 * deleted, and DynamoDB's "eventually consistent" tagging is, in Stator, immediate.
 *
 * <p>The checks run in DynamoDB's order: a missing ARN ("Invalid TableArn"); the members'
 * constraints; an ARN that is no table's, in the words DynamoDB is recorded to use for each way
 * of being wrong (not an ARN, not DynamoDB's, not a table's resource, another region, not a
 * table name); an empty list of tags or keys; then the table, which must exist in this account.
 * A well-formed ARN of a table that is not there is refused as DynamoDB refuses it, by
 * authorization (AccessDeniedException), since no policy can allow an action on a resource that
 * does not exist.
 */
final class Tagging {
  /**
   * Tags per ListTagsOfResource page. DynamoDB does not document its page size; a small page
   * makes clients' NextToken loops run against Stator as they must against DynamoDB.
   */
  static final int PAGE_SIZE = 10;

  /** The resource of a table's ARN: {@code table/} and a table name. */
  private static final Pattern TABLE_RESOURCE = Pattern.compile("table/[a-zA-Z0-9_.-]{3,255}");

  private final Tables tables;
  private final EngineOptions options;

  Tagging(Tables tables, EngineOptions options) {
    this.tables = tables;
    this.options = options;
  }

  TagResourceResponse tagResource(TagResourceRequest r) {
    checkArn(r.resourceArn());
    Constraints c = arnConstraints(r.resourceArn());
    c.notNull("tags", r.tags());
    SettingsValidation.tagConstraints(c, r.tags());
    c.check();
    checkTableArn(r.resourceArn());
    if (r.tags().isEmpty()) {
      throw DynamoDbException.validation("Atleast one Tag needs to be provided as Input.");
    }
    change(r.resourceArn(), "TagResource",
        s -> s.withTags(SettingsValidation.tagged(s.tags(), r.tags())));
    return new TagResourceResponse();
  }

  UntagResourceResponse untagResource(UntagResourceRequest r) {
    checkArn(r.resourceArn());
    Constraints c = arnConstraints(r.resourceArn());
    c.notNull("tagKeys", r.tagKeys());
    if (r.tagKeys() != null) {
      for (int i = 0; i < r.tagKeys().size(); i++) {
        String key = r.tagKeys().get(i);
        String path = "tagKeys." + (i + 1) + ".member";
        c.lengthAtLeast(path, key, key.length(), 1);
        c.lengthAtMost(path, key, key.length(), 128);
      }
    }
    c.check();
    checkTableArn(r.resourceArn());
    if (r.tagKeys().isEmpty()) {
      throw DynamoDbException.validation("Atleast one Tag Key needs to be provided as Input.");
    }
    r.tagKeys().forEach(SettingsValidation::checkTagKey);
    change(r.resourceArn(), "UntagResource", s -> {
      Map<String, String> tags = new TreeMap<>(s.tags());
      r.tagKeys().forEach(tags::remove);
      return s.withTags(tags);
    });
    return new UntagResourceResponse();
  }

  ListTagsOfResourceResponse listTagsOfResource(ListTagsOfResourceRequest r) {
    checkArn(r.resourceArn());
    arnConstraints(r.resourceArn()).check();
    checkTableArn(r.resourceArn());
    TableDefinition table = table(r.resourceArn(), "ListTagsOfResource");
    SortedMap<String, String> tags = table.settings().tags();
    if (r.nextToken() != null) {
      // The token is the last key of the previous page; tags come in key order.
      tags = tags.tailMap(r.nextToken() + "\0");
    }
    List<Tag> page = new ArrayList<>();
    String last = null;
    for (Map.Entry<String, String> e : tags.entrySet()) {
      if (page.size() == PAGE_SIZE) {
        return new ListTagsOfResourceResponse(page, last);
      }
      page.add(new Tag(e.getKey(), e.getValue()));
      last = e.getKey();
    }
    return new ListTagsOfResourceResponse(page, null);
  }

  // ---- checks -------------------------------------------------------------------------------

  private static void checkArn(String arn) {
    if (arn == null) {
      throw DynamoDbException.validation("Invalid TableArn");
    }
  }

  private static Constraints arnConstraints(String arn) {
    Constraints c = new Constraints();
    c.lengthAtMost("resourceArn", arn, arn.length(), 1283);
    return c;
  }

  /**
   * Refuses an ARN that names no table of this region: {@code arn:PARTITION:dynamodb:REGION:
   * ACCOUNT:table/NAME}. The account is checked with the table, as authorization.
   */
  private void checkTableArn(String arn) {
    String[] parts = arn.split(":", 6);
    if (!arn.startsWith("arn:")) {
      throw invalid("ARNs must start with 'arn:': " + arn);
    }
    if (parts.length < 6 || !parts[2].equals("dynamodb")) {
      throw invalid("Provided Arn is not a DynamoDB resource arn: " + arn);
    }
    if (!parts[5].startsWith("table/") || parts[5].indexOf('/', "table/".length()) >= 0) {
      throw invalid("Invalid resource arn provided, only table or stream is accepted. Provided"
          + " resource arn: " + arn);
    }
    if (!parts[3].equals(options.region()) || !TABLE_RESOURCE.matcher(parts[5]).matches()) {
      throw DynamoDbException.validation(
          "Invalid TableArn: Invalid ResourceArn provided as input " + arn);
    }
  }

  private static DynamoDbException invalid(String message) {
    return DynamoDbException.validation("One or more parameter values were invalid: " + message);
  }

  /**
   * DynamoDB's answer for a well-formed ARN that names no table of this region and account:
   * its authorization finds no policy that allows the action on that resource.
   */
  private DynamoDbException denied(String arn, String operation) {
    return new DynamoDbException(
        ErrorType.AccessDeniedException,
        "User: arn:aws:iam::" + options.accountId() + ":user/stator is not authorized to"
            + " perform: dynamodb:" + operation + " on resource: " + arn
            + " because no resource-based policy allows the dynamodb:" + operation + " action");
  }

  /** The table the ARN names: in this region and account, and existing. */
  private TableDefinition table(String arn, String operation) {
    String name = tableName(arn, operation);
    try {
      return tables.definition(name);
    } catch (DynamoDbException e) {
      throw e.type() == ErrorType.ResourceNotFoundException ? denied(arn, operation) : e;
    }
  }

  private void change(String arn, String operation, UnaryOperator<TableSettings> change) {
    String name = tableName(arn, operation);
    try {
      tables.change(name, t -> t.withSettings(change.apply(t.settings())));
    } catch (DynamoDbException e) {
      throw e.type() == ErrorType.ResourceNotFoundException ? denied(arn, operation) : e;
    }
  }

  private String tableName(String arn, String operation) {
    String name = tables.nameInArn(arn);
    if (name == null) {
      throw denied(arn, operation); // another region or account
    }
    return name;
  }
}
