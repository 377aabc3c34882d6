package io.stator.server.wire;

import static io.stator.server.wire.ShapeReader.member;
import static io.stator.server.wire.ShapeReader.request;
import static io.stator.server.wire.ShapeReader.structure;

import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DescribeEndpointsRequest;
import io.stator.api.DescribeLimitsRequest;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.TagResourceRequest;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.server.wire.ShapeReader.Member;

/**
 * Readers of the requests of the table-settings operations (tags, continuous backups, limits,
 * endpoints). Unknown members are skipped, as DynamoDB ignores them.
 */
final class SettingsRequests {
  private SettingsRequests() {}

  private static final Member RESOURCE_ARN = member("ResourceArn", JsonInput::string);

  static final ShapeReader<TagResourceRequest> TAG_RESOURCE = request(
      v -> new TagResourceRequest(v.next(), v.next()),
      RESOURCE_ARN, member("Tags", in -> in.list(Requests.TAG)));

  static final ShapeReader<UntagResourceRequest> UNTAG_RESOURCE = request(
      v -> new UntagResourceRequest(v.next(), v.next()),
      RESOURCE_ARN, member("TagKeys", JsonInput::strings));

  static final ShapeReader<ListTagsOfResourceRequest> LIST_TAGS_OF_RESOURCE = request(
      v -> new ListTagsOfResourceRequest(v.next(), v.next()),
      RESOURCE_ARN, member("NextToken", JsonInput::string));

  static final ShapeReader<DescribeContinuousBackupsRequest> DESCRIBE_CONTINUOUS_BACKUPS =
      request(v -> new DescribeContinuousBackupsRequest(v.next()), Requests.TABLE_NAME);

  static final ShapeReader<UpdateContinuousBackupsRequest> UPDATE_CONTINUOUS_BACKUPS = request(
      v -> new UpdateContinuousBackupsRequest(v.next(), v.next()), Requests.TABLE_NAME,
      member("PointInTimeRecoverySpecification", structure("PointInTimeRecoverySpecification",
          v -> new PointInTimeRecoverySpecification(v.next(), v.next()),
          member("PointInTimeRecoveryEnabled", JsonInput::bool),
          member("RecoveryPeriodInDays", JsonInput::integer))));

  /** No members: whatever the body holds is skipped. */
  static final ShapeReader<DescribeLimitsRequest> DESCRIBE_LIMITS =
      request(v -> new DescribeLimitsRequest());

  static final ShapeReader<DescribeEndpointsRequest> DESCRIBE_ENDPOINTS =
      request(v -> new DescribeEndpointsRequest());
}
