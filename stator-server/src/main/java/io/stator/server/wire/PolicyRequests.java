package io.stator.server.wire;

import io.stator.api.DeleteResourcePolicyRequest;
import io.stator.api.GetResourcePolicyRequest;
import io.stator.api.PutResourcePolicyRequest;
import java.io.IOException;

/** Readers of the resource-based policy operations' requests. */
final class PolicyRequests {
  private PolicyRequests() {}

  static PutResourcePolicyRequest putResourcePolicy(JsonInput in) throws IOException {
    String arn = null;
    String policy = null;
    String expected = null;
    Boolean confirm = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ResourceArn" -> arn = in.string();
        case "Policy" -> policy = in.string();
        case "ExpectedRevisionId" -> expected = in.string();
        case "ConfirmRemoveSelfResourceAccess" -> confirm = in.bool();
        default -> in.skip();
      }
    }
    return new PutResourcePolicyRequest(arn, policy, expected, confirm);
  }

  static GetResourcePolicyRequest getResourcePolicy(JsonInput in) throws IOException {
    String arn = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      if (m.equals("ResourceArn")) {
        arn = in.string();
      } else {
        in.skip();
      }
    }
    return new GetResourcePolicyRequest(arn);
  }

  static DeleteResourcePolicyRequest deleteResourcePolicy(JsonInput in) throws IOException {
    String arn = null;
    String expected = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ResourceArn" -> arn = in.string();
        case "ExpectedRevisionId" -> expected = in.string();
        default -> in.skip();
      }
    }
    return new DeleteResourcePolicyRequest(arn, expected);
  }
}
