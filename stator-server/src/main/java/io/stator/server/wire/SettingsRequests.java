package io.stator.server.wire;

import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DescribeEndpointsRequest;
import io.stator.api.DescribeLimitsRequest;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.SSESpecification;
import io.stator.api.Tag;
import io.stator.api.TagResourceRequest;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UpdateContinuousBackupsRequest;
import java.io.IOException;
import java.util.List;

/**
 * Readers of the requests of the table-settings operations (tags, continuous backups, limits,
 * endpoints) and of CreateTable's and UpdateTable's SSESpecification. Unknown members are
 * skipped, as DynamoDB ignores them.
 */
final class SettingsRequests {
  private SettingsRequests() {}

  static TagResourceRequest tagResource(JsonInput in) throws IOException {
    String arn = null;
    List<Tag> tags = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ResourceArn" -> arn = in.string();
        case "Tags" -> tags = in.list(Requests::tag);
        default -> in.skip();
      }
    }
    return new TagResourceRequest(arn, tags);
  }

  static UntagResourceRequest untagResource(JsonInput in) throws IOException {
    String arn = null;
    List<String> keys = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ResourceArn" -> arn = in.string();
        case "TagKeys" -> keys = in.strings();
        default -> in.skip();
      }
    }
    return new UntagResourceRequest(arn, keys);
  }

  static ListTagsOfResourceRequest listTagsOfResource(JsonInput in) throws IOException {
    String arn = null;
    String nextToken = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ResourceArn" -> arn = in.string();
        case "NextToken" -> nextToken = in.string();
        default -> in.skip();
      }
    }
    return new ListTagsOfResourceRequest(arn, nextToken);
  }

  static DescribeContinuousBackupsRequest describeContinuousBackups(JsonInput in)
      throws IOException {
    return new DescribeContinuousBackupsRequest(Requests.tableNameOnly(in));
  }

  static UpdateContinuousBackupsRequest updateContinuousBackups(JsonInput in)
      throws IOException {
    String tableName = null;
    PointInTimeRecoverySpecification spec = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "PointInTimeRecoverySpecification" -> spec = pointInTimeRecovery(in);
        default -> in.skip();
      }
    }
    return new UpdateContinuousBackupsRequest(tableName, spec);
  }

  private static PointInTimeRecoverySpecification pointInTimeRecovery(JsonInput in)
      throws IOException {
    return in.struct("PointInTimeRecoverySpecification", s -> {
      Boolean enabled = null;
      Integer days = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "PointInTimeRecoveryEnabled" -> enabled = s.bool();
          case "RecoveryPeriodInDays" -> days = s.integer();
          default -> s.skip();
        }
      }
      return new PointInTimeRecoverySpecification(enabled, days);
    });
  }

  static DescribeLimitsRequest describeLimits(JsonInput in) throws IOException {
    skipAll(in);
    return new DescribeLimitsRequest();
  }

  static DescribeEndpointsRequest describeEndpoints(JsonInput in) throws IOException {
    skipAll(in);
    return new DescribeEndpointsRequest();
  }

  private static void skipAll(JsonInput in) throws IOException {
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      in.skip();
    }
  }

  static SSESpecification sseSpecification(JsonInput in) throws IOException {
    return in.struct("SSESpecification", s -> {
      Boolean enabled = null;
      String type = null;
      String keyId = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Enabled" -> enabled = s.bool();
          case "SSEType" -> type = s.string();
          case "KMSMasterKeyId" -> keyId = s.string();
          default -> s.skip();
        }
      }
      return new SSESpecification(enabled, type, keyId);
    });
  }
}
