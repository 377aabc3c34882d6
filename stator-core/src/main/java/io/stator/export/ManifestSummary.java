package io.stator.export;

import io.stator.api.ExportDescription;
import java.time.Instant;

/**
 * {@code manifest-summary.json}, as DynamoDB writes it beside an export's files: the export's
 * description in camelCase, its times as ISO-8601, and the key of {@code manifest-files.json}.
 */
final class ManifestSummary {
  private ManifestSummary() {}

  static String json(ExportDescription d, String manifestFilesKey) {
    StringBuilder out = new StringBuilder("{");
    field(out, "version", "2020-06-30");
    field(out, "exportArn", d.exportArn());
    field(out, "startTime", d.startTime());
    field(out, "endTime", d.endTime());
    field(out, "tableArn", d.tableArn());
    field(out, "tableId", d.tableId());
    field(out, "exportTime", d.exportTime());
    field(out, "s3Bucket", d.s3Bucket());
    field(out, "s3Prefix", d.s3Prefix());
    field(out, "s3SseAlgorithm", d.s3SseAlgorithm());
    field(out, "s3SseKmsKeyId", d.s3SseKmsKeyId());
    field(out, "manifestFilesS3Key", manifestFilesKey);
    if (d.incrementalExportSpecification() != null) {
      field(out, "exportFromTime", d.incrementalExportSpecification().exportFromTime());
      field(out, "exportToTime", d.incrementalExportSpecification().exportToTime());
      field(out, "exportViewType", d.incrementalExportSpecification().exportViewType());
    }
    out.append("\"billedSizeBytes\":").append(d.billedSizeBytes()).append(',');
    out.append("\"itemCount\":").append(d.itemCount()).append(',');
    field(out, "outputFormat", d.exportFormat());
    out.append("\"exportType\":");
    DynamoDbJson.string(out, d.exportType());
    return out.append("}\n").toString();
  }

  private static void field(StringBuilder out, String name, Object value) {
    out.append('"').append(name).append("\":");
    if (value == null) {
      out.append("null");
    } else {
      DynamoDbJson.string(out, value instanceof Instant t ? t.toString() : value.toString());
    }
    out.append(',');
  }
}
