package io.stator.server.wire;

import static io.stator.server.wire.ShapeReader.member;
import static io.stator.server.wire.ShapeReader.request;

import io.stator.api.DeleteResourcePolicyRequest;
import io.stator.api.GetResourcePolicyRequest;
import io.stator.api.PutResourcePolicyRequest;
import io.stator.server.wire.ShapeReader.Member;

/** Readers of the resource-based policy operations' requests. */
final class PolicyRequests {
  private PolicyRequests() {}

  private static final Member RESOURCE_ARN = member("ResourceArn", JsonInput::string);
  private static final Member EXPECTED_REVISION_ID =
      member("ExpectedRevisionId", JsonInput::string);

  static final ShapeReader<PutResourcePolicyRequest> PUT_RESOURCE_POLICY = request(
      v -> new PutResourcePolicyRequest(v.next(), v.next(), v.next(), v.next()),
      RESOURCE_ARN, member("Policy", JsonInput::string), EXPECTED_REVISION_ID,
      member("ConfirmRemoveSelfResourceAccess", JsonInput::bool));

  static final ShapeReader<GetResourcePolicyRequest> GET_RESOURCE_POLICY =
      request(v -> new GetResourcePolicyRequest(v.next()), RESOURCE_ARN);

  static final ShapeReader<DeleteResourcePolicyRequest> DELETE_RESOURCE_POLICY = request(
      v -> new DeleteResourcePolicyRequest(v.next(), v.next()),
      RESOURCE_ARN, EXPECTED_REVISION_ID);
}
