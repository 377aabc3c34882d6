package io.stator.server.wire;

import static io.stator.server.wire.Responses.string;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.DeleteResourcePolicyResponse;
import io.stator.api.GetResourcePolicyResponse;
import io.stator.api.PutResourcePolicyResponse;
import java.io.IOException;

/** Writers of the resource-based policy operations' responses. */
final class PolicyResponses {
  private PolicyResponses() {}

  static void putResourcePolicy(JsonGenerator out, PutResourcePolicyResponse r)
      throws IOException {
    out.writeStartObject();
    string(out, "RevisionId", r.revisionId());
    out.writeEndObject();
  }

  static void getResourcePolicy(JsonGenerator out, GetResourcePolicyResponse r)
      throws IOException {
    out.writeStartObject();
    string(out, "Policy", r.policy());
    string(out, "RevisionId", r.revisionId());
    out.writeEndObject();
  }

  /** The revision deleted; nothing when there was no policy. */
  static void deleteResourcePolicy(JsonGenerator out, DeleteResourcePolicyResponse r)
      throws IOException {
    out.writeStartObject();
    string(out, "RevisionId", r.revisionId());
    out.writeEndObject();
  }
}
