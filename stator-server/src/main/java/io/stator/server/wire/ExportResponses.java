package io.stator.server.wire;

import static io.stator.server.wire.Responses.field;
import static io.stator.server.wire.Responses.list;
import static io.stator.server.wire.Responses.number;
import static io.stator.server.wire.Responses.string;
import static io.stator.server.wire.Responses.timestamp;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.DescribeExportResponse;
import io.stator.api.DescribeImportResponse;
import io.stator.api.ExportDescription;
import io.stator.api.ExportSummary;
import io.stator.api.ExportTableToPointInTimeResponse;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.ImportSummary;
import io.stator.api.ImportTableDescription;
import io.stator.api.ImportTableResponse;
import io.stator.api.IncrementalExportSpecification;
import io.stator.api.InputFormatOptions;
import io.stator.api.ListExportsResponse;
import io.stator.api.ListImportsResponse;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.S3BucketSource;
import io.stator.api.TableCreationParameters;
import java.io.IOException;

/** Writers of the export and import operations' responses. */
final class ExportResponses {
  private ExportResponses() {}

  static void exportTableToPointInTime(JsonGenerator out, ExportTableToPointInTimeResponse r)
      throws IOException {
    out.writeStartObject();
    field(out, "ExportDescription", r.exportDescription(), ExportResponses::export);
    out.writeEndObject();
  }

  static void describeExport(JsonGenerator out, DescribeExportResponse r) throws IOException {
    out.writeStartObject();
    field(out, "ExportDescription", r.exportDescription(), ExportResponses::export);
    out.writeEndObject();
  }

  static void listExports(JsonGenerator out, ListExportsResponse r) throws IOException {
    out.writeStartObject();
    field(out, "ExportSummaries", r.exportSummaries(), list(ExportResponses::exportSummary));
    string(out, "NextToken", r.nextToken());
    out.writeEndObject();
  }

  private static void export(JsonGenerator out, ExportDescription d) throws IOException {
    out.writeStartObject();
    string(out, "ExportArn", d.exportArn());
    string(out, "ExportStatus", d.exportStatus());
    timestamp(out, "StartTime", d.startTime());
    timestamp(out, "EndTime", d.endTime());
    string(out, "ExportManifest", d.exportManifest());
    string(out, "TableArn", d.tableArn());
    string(out, "TableId", d.tableId());
    timestamp(out, "ExportTime", d.exportTime());
    string(out, "ClientToken", d.clientToken());
    string(out, "S3Bucket", d.s3Bucket());
    string(out, "S3BucketOwner", d.s3BucketOwner());
    string(out, "S3Prefix", d.s3Prefix());
    string(out, "S3SseAlgorithm", d.s3SseAlgorithm());
    string(out, "S3SseKmsKeyId", d.s3SseKmsKeyId());
    string(out, "FailureCode", d.failureCode());
    string(out, "FailureMessage", d.failureMessage());
    string(out, "ExportFormat", d.exportFormat());
    number(out, "BilledSizeBytes", d.billedSizeBytes());
    number(out, "ItemCount", d.itemCount());
    string(out, "ExportType", d.exportType());
    field(out, "IncrementalExportSpecification", d.incrementalExportSpecification(),
        ExportResponses::incremental);
    out.writeEndObject();
  }

  private static void incremental(JsonGenerator out, IncrementalExportSpecification s)
      throws IOException {
    out.writeStartObject();
    timestamp(out, "ExportFromTime", s.exportFromTime());
    timestamp(out, "ExportToTime", s.exportToTime());
    string(out, "ExportViewType", s.exportViewType());
    out.writeEndObject();
  }

  private static void exportSummary(JsonGenerator out, ExportSummary s) throws IOException {
    out.writeStartObject();
    string(out, "ExportArn", s.exportArn());
    string(out, "ExportStatus", s.exportStatus());
    string(out, "ExportType", s.exportType());
    out.writeEndObject();
  }

  static void importTable(JsonGenerator out, ImportTableResponse r) throws IOException {
    out.writeStartObject();
    field(out, "ImportTableDescription", r.importTableDescription(), ExportResponses::imported);
    out.writeEndObject();
  }

  static void describeImport(JsonGenerator out, DescribeImportResponse r) throws IOException {
    out.writeStartObject();
    field(out, "ImportTableDescription", r.importTableDescription(), ExportResponses::imported);
    out.writeEndObject();
  }

  static void listImports(JsonGenerator out, ListImportsResponse r) throws IOException {
    out.writeStartObject();
    field(out, "ImportSummaryList", r.importSummaryList(), list(ExportResponses::importSummary));
    string(out, "NextToken", r.nextToken());
    out.writeEndObject();
  }

  private static void imported(JsonGenerator out, ImportTableDescription d) throws IOException {
    out.writeStartObject();
    string(out, "ImportArn", d.importArn());
    string(out, "ImportStatus", d.importStatus());
    string(out, "TableArn", d.tableArn());
    string(out, "TableId", d.tableId());
    string(out, "ClientToken", d.clientToken());
    field(out, "S3BucketSource", d.s3BucketSource(), ExportResponses::bucketSource);
    number(out, "ErrorCount", d.errorCount());
    string(out, "InputFormat", d.inputFormat());
    field(out, "InputFormatOptions", d.inputFormatOptions(), ExportResponses::formatOptions);
    string(out, "InputCompressionType", d.inputCompressionType());
    field(out, "TableCreationParameters", d.tableCreationParameters(),
        ExportResponses::tableCreationParameters);
    timestamp(out, "StartTime", d.startTime());
    timestamp(out, "EndTime", d.endTime());
    number(out, "ProcessedSizeBytes", d.processedSizeBytes());
    number(out, "ProcessedItemCount", d.processedItemCount());
    number(out, "ImportedItemCount", d.importedItemCount());
    string(out, "FailureCode", d.failureCode());
    string(out, "FailureMessage", d.failureMessage());
    out.writeEndObject();
  }

  private static void importSummary(JsonGenerator out, ImportSummary s) throws IOException {
    out.writeStartObject();
    string(out, "ImportArn", s.importArn());
    string(out, "ImportStatus", s.importStatus());
    string(out, "TableArn", s.tableArn());
    field(out, "S3BucketSource", s.s3BucketSource(), ExportResponses::bucketSource);
    string(out, "InputFormat", s.inputFormat());
    timestamp(out, "StartTime", s.startTime());
    timestamp(out, "EndTime", s.endTime());
    out.writeEndObject();
  }

  private static void bucketSource(JsonGenerator out, S3BucketSource s) throws IOException {
    out.writeStartObject();
    string(out, "S3BucketOwner", s.s3BucketOwner());
    string(out, "S3Bucket", s.s3Bucket());
    string(out, "S3KeyPrefix", s.s3KeyPrefix());
    out.writeEndObject();
  }

  private static void formatOptions(JsonGenerator out, InputFormatOptions o) throws IOException {
    out.writeStartObject();
    if (o.csvDelimiter() != null || o.csvHeaderList() != null) {
      out.writeFieldName("Csv");
      out.writeStartObject();
      string(out, "Delimiter", o.csvDelimiter());
      field(out, "HeaderList", o.csvHeaderList(), list(JsonGenerator::writeString));
      out.writeEndObject();
    }
    out.writeEndObject();
  }

  private static void tableCreationParameters(JsonGenerator out, TableCreationParameters t)
      throws IOException {
    out.writeStartObject();
    string(out, "TableName", t.tableName());
    field(out, "AttributeDefinitions", t.attributeDefinitions(), list(Responses::attributeDef));
    field(out, "KeySchema", t.keySchema(), list(Responses::keySchemaElement));
    string(out, "BillingMode", t.billingMode());
    field(out, "ProvisionedThroughput", t.provisionedThroughput(), ExportResponses::throughput);
    field(out, "OnDemandThroughput", t.onDemandThroughput(), Responses::onDemandThroughput);
    field(out, "GlobalSecondaryIndexes", t.globalSecondaryIndexes(),
        list(ExportResponses::gsi));
    out.writeEndObject();
  }

  private static void gsi(JsonGenerator out, GlobalSecondaryIndex i) throws IOException {
    out.writeStartObject();
    string(out, "IndexName", i.indexName());
    field(out, "KeySchema", i.keySchema(), list(Responses::keySchemaElement));
    field(out, "Projection", i.projection(), Responses::projection);
    field(out, "ProvisionedThroughput", i.provisionedThroughput(), ExportResponses::throughput);
    field(out, "OnDemandThroughput", i.onDemandThroughput(), Responses::onDemandThroughput);
    out.writeEndObject();
  }

  private static void throughput(JsonGenerator out, ProvisionedThroughput p) throws IOException {
    out.writeStartObject();
    number(out, "ReadCapacityUnits", p.readCapacityUnits());
    number(out, "WriteCapacityUnits", p.writeCapacityUnits());
    out.writeEndObject();
  }
}
