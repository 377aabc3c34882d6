package io.stator.server.wire;

import static io.stator.server.wire.Responses.list;
import static io.stator.server.wire.ShapeWriter.field;
import static io.stator.server.wire.ShapeWriter.number;
import static io.stator.server.wire.ShapeWriter.object;
import static io.stator.server.wire.ShapeWriter.string;
import static io.stator.server.wire.ShapeWriter.timestamp;

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
import io.stator.api.S3BucketSource;
import io.stator.api.TableCreationParameters;

/** Writers of the export and import operations' responses. */
final class ExportResponses {
  private ExportResponses() {}

  private static final ShapeWriter<ExportDescription> EXPORT = object(
      string("ExportArn", ExportDescription::exportArn),
      string("ExportStatus", ExportDescription::exportStatus),
      timestamp("StartTime", ExportDescription::startTime),
      timestamp("EndTime", ExportDescription::endTime),
      string("ExportManifest", ExportDescription::exportManifest),
      string("TableArn", ExportDescription::tableArn),
      string("TableId", ExportDescription::tableId),
      timestamp("ExportTime", ExportDescription::exportTime),
      string("ClientToken", ExportDescription::clientToken),
      string("S3Bucket", ExportDescription::s3Bucket),
      string("S3BucketOwner", ExportDescription::s3BucketOwner),
      string("S3Prefix", ExportDescription::s3Prefix),
      string("S3SseAlgorithm", ExportDescription::s3SseAlgorithm),
      string("S3SseKmsKeyId", ExportDescription::s3SseKmsKeyId),
      string("FailureCode", ExportDescription::failureCode),
      string("FailureMessage", ExportDescription::failureMessage),
      string("ExportFormat", ExportDescription::exportFormat),
      number("BilledSizeBytes", ExportDescription::billedSizeBytes),
      number("ItemCount", ExportDescription::itemCount),
      string("ExportType", ExportDescription::exportType),
      field("IncrementalExportSpecification", ExportDescription::incrementalExportSpecification,
          object(timestamp("ExportFromTime", IncrementalExportSpecification::exportFromTime),
              timestamp("ExportToTime", IncrementalExportSpecification::exportToTime),
              string("ExportViewType", IncrementalExportSpecification::exportViewType))));

  static final ShapeWriter<ExportTableToPointInTimeResponse> EXPORT_TABLE_TO_POINT_IN_TIME =
      object(field("ExportDescription", ExportTableToPointInTimeResponse::exportDescription,
          EXPORT));

  static final ShapeWriter<DescribeExportResponse> DESCRIBE_EXPORT =
      object(field("ExportDescription", DescribeExportResponse::exportDescription, EXPORT));

  static final ShapeWriter<ListExportsResponse> LIST_EXPORTS = object(
      field("ExportSummaries", ListExportsResponse::exportSummaries,
          list(object(string("ExportArn", ExportSummary::exportArn),
              string("ExportStatus", ExportSummary::exportStatus),
              string("ExportType", ExportSummary::exportType)))),
      string("NextToken", ListExportsResponse::nextToken));

  private static final ShapeWriter<S3BucketSource> BUCKET_SOURCE = object(
      string("S3BucketOwner", S3BucketSource::s3BucketOwner),
      string("S3Bucket", S3BucketSource::s3Bucket),
      string("S3KeyPrefix", S3BucketSource::s3KeyPrefix));

  /** The record keeps CsvOptions' members; a Csv object is written when it has either. */
  private static final ShapeWriter<InputFormatOptions> FORMAT_OPTIONS = object(
      field("Csv", o -> o.csvDelimiter() != null || o.csvHeaderList() != null ? o : null,
          object(string("Delimiter", InputFormatOptions::csvDelimiter),
              field("HeaderList", InputFormatOptions::csvHeaderList, Responses::strings))));

  private static final ShapeWriter<TableCreationParameters> TABLE_CREATION_PARAMETERS = object(
      string("TableName", TableCreationParameters::tableName),
      field("AttributeDefinitions", TableCreationParameters::attributeDefinitions,
          list(TableResponses.ATTRIBUTE_DEFINITION)),
      field("KeySchema", TableCreationParameters::keySchema,
          list(TableResponses.KEY_SCHEMA_ELEMENT)),
      string("BillingMode", TableCreationParameters::billingMode),
      field("ProvisionedThroughput", TableCreationParameters::provisionedThroughput,
          TableResponses.PROVISIONED_THROUGHPUT),
      field("OnDemandThroughput", TableCreationParameters::onDemandThroughput,
          TableResponses.ON_DEMAND_THROUGHPUT),
      field("GlobalSecondaryIndexes", TableCreationParameters::globalSecondaryIndexes,
          list(object(string("IndexName", GlobalSecondaryIndex::indexName),
              field("KeySchema", GlobalSecondaryIndex::keySchema,
                  list(TableResponses.KEY_SCHEMA_ELEMENT)),
              field("Projection", GlobalSecondaryIndex::projection, TableResponses.PROJECTION),
              field("ProvisionedThroughput", GlobalSecondaryIndex::provisionedThroughput,
                  TableResponses.PROVISIONED_THROUGHPUT),
              field("OnDemandThroughput", GlobalSecondaryIndex::onDemandThroughput,
                  TableResponses.ON_DEMAND_THROUGHPUT)))));

  private static final ShapeWriter<ImportTableDescription> IMPORTED = object(
      string("ImportArn", ImportTableDescription::importArn),
      string("ImportStatus", ImportTableDescription::importStatus),
      string("TableArn", ImportTableDescription::tableArn),
      string("TableId", ImportTableDescription::tableId),
      string("ClientToken", ImportTableDescription::clientToken),
      field("S3BucketSource", ImportTableDescription::s3BucketSource, BUCKET_SOURCE),
      number("ErrorCount", ImportTableDescription::errorCount),
      string("InputFormat", ImportTableDescription::inputFormat),
      field("InputFormatOptions", ImportTableDescription::inputFormatOptions, FORMAT_OPTIONS),
      string("InputCompressionType", ImportTableDescription::inputCompressionType),
      field("TableCreationParameters", ImportTableDescription::tableCreationParameters,
          TABLE_CREATION_PARAMETERS),
      timestamp("StartTime", ImportTableDescription::startTime),
      timestamp("EndTime", ImportTableDescription::endTime),
      number("ProcessedSizeBytes", ImportTableDescription::processedSizeBytes),
      number("ProcessedItemCount", ImportTableDescription::processedItemCount),
      number("ImportedItemCount", ImportTableDescription::importedItemCount),
      string("FailureCode", ImportTableDescription::failureCode),
      string("FailureMessage", ImportTableDescription::failureMessage));

  static final ShapeWriter<ImportTableResponse> IMPORT_TABLE = object(field(
      "ImportTableDescription", ImportTableResponse::importTableDescription, IMPORTED));

  static final ShapeWriter<DescribeImportResponse> DESCRIBE_IMPORT = object(field(
      "ImportTableDescription", DescribeImportResponse::importTableDescription, IMPORTED));

  static final ShapeWriter<ListImportsResponse> LIST_IMPORTS = object(
      field("ImportSummaryList", ListImportsResponse::importSummaryList,
          list(object(string("ImportArn", ImportSummary::importArn),
              string("ImportStatus", ImportSummary::importStatus),
              string("TableArn", ImportSummary::tableArn),
              field("S3BucketSource", ImportSummary::s3BucketSource, BUCKET_SOURCE),
              string("InputFormat", ImportSummary::inputFormat),
              timestamp("StartTime", ImportSummary::startTime),
              timestamp("EndTime", ImportSummary::endTime)))),
      string("NextToken", ListImportsResponse::nextToken));
}
