package io.stator.server.wire;

import static io.stator.server.wire.Responses.number;
import static io.stator.server.wire.Responses.string;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.ContinuousBackupsDescription;
import io.stator.api.DescribeContinuousBackupsResponse;
import io.stator.api.DescribeEndpointsResponse;
import io.stator.api.DescribeLimitsResponse;
import io.stator.api.Endpoint;
import io.stator.api.ListTagsOfResourceResponse;
import io.stator.api.PointInTimeRecoveryDescription;
import io.stator.api.SSEDescription;
import io.stator.api.TableClassSummary;
import io.stator.api.Tag;
import io.stator.api.TagResourceResponse;
import io.stator.api.UntagResourceResponse;
import io.stator.api.UpdateContinuousBackupsResponse;
import java.io.IOException;

/**
 * Writers of the responses of the table-settings operations (tags, continuous backups, limits,
 * endpoints) and of the settings members of a TableDescription.
 */
final class SettingsResponses {
  private SettingsResponses() {}

  /** Nothing: DynamoDB answers TagResource and UntagResource with an empty body. */
  static void tagResource(JsonGenerator out, TagResourceResponse r) {}

  /** Nothing, as TagResource. */
  static void untagResource(JsonGenerator out, UntagResourceResponse r) {}

  static void listTagsOfResource(JsonGenerator out, ListTagsOfResourceResponse r)
      throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("Tags");
    for (Tag t : r.tags()) {
      out.writeStartObject();
      string(out, "Key", t.key());
      string(out, "Value", t.value());
      out.writeEndObject();
    }
    out.writeEndArray();
    string(out, "NextToken", r.nextToken());
    out.writeEndObject();
  }

  static void describeContinuousBackups(
      JsonGenerator out, DescribeContinuousBackupsResponse r) throws IOException {
    out.writeStartObject();
    continuousBackups(out, r.continuousBackupsDescription());
    out.writeEndObject();
  }

  static void updateContinuousBackups(JsonGenerator out, UpdateContinuousBackupsResponse r)
      throws IOException {
    out.writeStartObject();
    continuousBackups(out, r.continuousBackupsDescription());
    out.writeEndObject();
  }

  private static void continuousBackups(JsonGenerator out, ContinuousBackupsDescription d)
      throws IOException {
    out.writeObjectFieldStart("ContinuousBackupsDescription");
    string(out, "ContinuousBackupsStatus", d.continuousBackupsStatus());
    PointInTimeRecoveryDescription p = d.pointInTimeRecoveryDescription();
    if (p != null) {
      out.writeObjectFieldStart("PointInTimeRecoveryDescription");
      string(out, "PointInTimeRecoveryStatus", p.pointInTimeRecoveryStatus());
      if (p.recoveryPeriodInDays() != null) {
        out.writeNumberField("RecoveryPeriodInDays", p.recoveryPeriodInDays());
      }
      Responses.timestamp(out, "EarliestRestorableDateTime", p.earliestRestorableDateTime());
      Responses.timestamp(out, "LatestRestorableDateTime", p.latestRestorableDateTime());
      out.writeEndObject();
    }
    out.writeEndObject();
  }

  static void describeLimits(JsonGenerator out, DescribeLimitsResponse r) throws IOException {
    out.writeStartObject();
    number(out, "AccountMaxReadCapacityUnits", r.accountMaxReadCapacityUnits());
    number(out, "AccountMaxWriteCapacityUnits", r.accountMaxWriteCapacityUnits());
    number(out, "TableMaxReadCapacityUnits", r.tableMaxReadCapacityUnits());
    number(out, "TableMaxWriteCapacityUnits", r.tableMaxWriteCapacityUnits());
    out.writeEndObject();
  }

  static void describeEndpoints(JsonGenerator out, DescribeEndpointsResponse r)
      throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("Endpoints");
    for (Endpoint e : r.endpoints()) {
      out.writeStartObject();
      string(out, "Address", e.address());
      out.writeNumberField("CachePeriodInMinutes", e.cachePeriodInMinutes());
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  // ---- members of a TableDescription --------------------------------------------------------

  static void tableClassSummary(JsonGenerator out, TableClassSummary s) throws IOException {
    if (s != null) {
      out.writeObjectFieldStart("TableClassSummary");
      string(out, "TableClass", s.tableClass());
      Responses.timestamp(out, "LastUpdateDateTime", s.lastUpdateDateTime());
      out.writeEndObject();
    }
  }

  static void sseDescription(JsonGenerator out, SSEDescription d) throws IOException {
    if (d != null) {
      out.writeObjectFieldStart("SSEDescription");
      string(out, "Status", d.status());
      string(out, "SSEType", d.sseType());
      string(out, "KMSMasterKeyArn", d.kmsMasterKeyArn());
      Responses.timestamp(
          out, "InaccessibleEncryptionDateTime", d.inaccessibleEncryptionDateTime());
      out.writeEndObject();
    }
  }
}
