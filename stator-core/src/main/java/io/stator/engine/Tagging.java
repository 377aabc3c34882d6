package io.stator.engine;

import io.stator.EngineOptions;
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
 * <p>The checks run in DynamoDB's order: a missing ARN ("Invalid TableArn"); something that is
 * no ARN at all, which DynamoDB's authorization refuses before validation
 * (AccessDeniedException); the members' constraints; an ARN that names no table, such as an
 * index's ("Invalid TableArn: Invalid ResourceArn provided as input ..."); an empty list of tags
 * or keys; then the table, which must exist in this region and account (ResourceNotFound, with
 * DynamoDB's own spelling "ResourcArn").
 */
final class Tagging {
  /**
   * Tags per ListTagsOfResource page. DynamoDB does not document its page size; a small page
   * makes clients' NextToken loops run against Stator as they must against DynamoDB.
   */
  static final int PAGE_SIZE = 10;

  private static final Pattern ANY_ARN = Pattern.compile("^.+:.+:.+:.+:.+:.+/.+$");
  private static final Pattern TABLE_ARN =
      Pattern.compile("^arn:aws:dynamodb:.+:\\d+:table/[^/]{2}[^/]+$");

  private final Tables tables;
  private final EngineOptions options;

  Tagging(Tables tables, EngineOptions options) {
    this.tables = tables;
    this.options = options;
  }

  TagResourceResponse tagResource(TagResourceRequest r) {
    checkArn(r.resourceArn(), "TagResource");
    Constraints c = arnConstraints(r.resourceArn());
    c.notNull("tags", r.tags());
    SettingsValidation.tagConstraints(c, r.tags());
    c.check();
    checkTableArn(r.resourceArn());
    if (r.tags().isEmpty()) {
      throw DynamoDbException.validation("Atleast one Tag needs to be provided as Input.");
    }
    change(r.resourceArn(), notFoundNaming(r.resourceArn()),
        s -> s.withTags(SettingsValidation.tagged(s.tags(), r.tags())));
    return new TagResourceResponse();
  }

  UntagResourceResponse untagResource(UntagResourceRequest r) {
    checkArn(r.resourceArn(), "UntagResource");
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
    // DynamoDB's UntagResource names no ARN when the table does not exist.
    change(r.resourceArn(), "Requested resource not found", s -> {
      Map<String, String> tags = new TreeMap<>(s.tags());
      r.tagKeys().forEach(tags::remove);
      return s.withTags(tags);
    });
    return new UntagResourceResponse();
  }

  ListTagsOfResourceResponse listTagsOfResource(ListTagsOfResourceRequest r) {
    checkArn(r.resourceArn(), "ListTagsOfResource");
    arnConstraints(r.resourceArn()).check();
    checkTableArn(r.resourceArn());
    TableDefinition table = table(r.resourceArn(), notFoundNaming(r.resourceArn()));
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

  private void checkArn(String arn, String operation) {
    if (arn == null) {
      throw DynamoDbException.validation("Invalid TableArn");
    }
    if (!ANY_ARN.matcher(arn).matches()) {
      throw new DynamoDbException(
          ErrorType.AccessDeniedException,
          "User: arn:aws:iam::" + options.accountId() + ":user/stator is not authorized to"
              + " perform: dynamodb:" + operation + " on resource: " + arn);
    }
  }

  private static Constraints arnConstraints(String arn) {
    Constraints c = new Constraints();
    c.lengthAtMost("resourceArn", arn, arn.length(), 1283);
    return c;
  }

  private static void checkTableArn(String arn) {
    if (!TABLE_ARN.matcher(arn).matches()) {
      throw DynamoDbException.validation(
          "Invalid TableArn: Invalid ResourceArn provided as input " + arn);
    }
  }

  private static String notFoundNaming(String arn) {
    return "Requested resource not found: ResourcArn: " + arn + " not found";
  }

  /** The table the ARN names: in this region and account, and existing. */
  private TableDefinition table(String arn, String notFound) {
    String name = tableName(arn, notFound);
    try {
      return tables.definition(name);
    } catch (DynamoDbException e) {
      throw e.type() == ErrorType.ResourceNotFoundException
          ? DynamoDbException.resourceNotFound(notFound) : e;
    }
  }

  private void change(String arn, String notFound, UnaryOperator<TableSettings> change) {
    String name = tableName(arn, notFound);
    try {
      tables.change(name, t -> t.withSettings(change.apply(t.settings())));
    } catch (DynamoDbException e) {
      throw e.type() == ErrorType.ResourceNotFoundException
          ? DynamoDbException.resourceNotFound(notFound) : e;
    }
  }

  private String tableName(String arn, String notFound) {
    String name = arn.substring(arn.indexOf(":table/") + ":table/".length());
    if (!arn.equals(tables.arn(name))) {
      throw DynamoDbException.resourceNotFound(notFound); // another region or account
    }
    return name;
  }
}
