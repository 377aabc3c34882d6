package io.stator.server.wire;

import static io.stator.server.wire.ShapeReader.member;
import static io.stator.server.wire.ShapeReader.request;
import static io.stator.server.wire.ShapeReader.structure;

import io.stator.api.CreateTableRequest;
import io.stator.api.DescribeExportRequest;
import io.stator.api.DescribeImportRequest;
import io.stator.api.ExportTableToPointInTimeRequest;
import io.stator.api.ImportTableRequest;
import io.stator.api.IncrementalExportSpecification;
import io.stator.api.InputFormatOptions;
import io.stator.api.ListExportsRequest;
import io.stator.api.ListImportsRequest;
import io.stator.api.S3BucketSource;
import io.stator.api.TableCreationParameters;
import io.stator.server.wire.ShapeReader.Member;

/** Readers of the export and import operations' requests; unknown members are skipped. */
final class ExportRequests {
  private ExportRequests() {}

  private static final Member TABLE_ARN = member("TableArn", JsonInput::string);
  private static final Member CLIENT_TOKEN = member("ClientToken", JsonInput::string);
  private static final Member NEXT_TOKEN = member("NextToken", JsonInput::string);

  static final ShapeReader<ExportTableToPointInTimeRequest> EXPORT_TABLE_TO_POINT_IN_TIME =
      request(v -> new ExportTableToPointInTimeRequest(v.next(), v.next(), v.next(), v.next(),
              v.next(), v.next(), v.next(), v.next(), v.next(), v.next(), v.next()),
          TABLE_ARN, member("ExportTime", JsonInput::timestamp), CLIENT_TOKEN,
          member("S3Bucket", JsonInput::string), member("S3BucketOwner", JsonInput::string),
          member("S3Prefix", JsonInput::string), member("S3SseAlgorithm", JsonInput::string),
          member("S3SseKmsKeyId", JsonInput::string), member("ExportFormat", JsonInput::string),
          member("ExportType", JsonInput::string),
          member("IncrementalExportSpecification", structure("IncrementalExportSpecification",
              v -> new IncrementalExportSpecification(v.next(), v.next(), v.next()),
              member("ExportFromTime", JsonInput::timestamp),
              member("ExportToTime", JsonInput::timestamp),
              member("ExportViewType", JsonInput::string))));

  static final ShapeReader<DescribeExportRequest> DESCRIBE_EXPORT = request(
      v -> new DescribeExportRequest(v.next()), member("ExportArn", JsonInput::string));

  static final ShapeReader<DescribeImportRequest> DESCRIBE_IMPORT = request(
      v -> new DescribeImportRequest(v.next()), member("ImportArn", JsonInput::string));

  static final ShapeReader<ListExportsRequest> LIST_EXPORTS = request(
      v -> new ListExportsRequest(v.next(), v.next(), v.next()),
      TABLE_ARN, member("MaxResults", JsonInput::integer), NEXT_TOKEN);

  static final ShapeReader<ListImportsRequest> LIST_IMPORTS = request(
      v -> new ListImportsRequest(v.next(), v.next(), v.next()),
      TABLE_ARN, member("PageSize", JsonInput::integer), NEXT_TOKEN);

  /** InputFormatOptions holds CsvOptions, whose members the record keeps; none is no CSV. */
  private static final ShapeReader<InputFormatOptions> FORMAT_OPTIONS = structure(
      "InputFormatOptions",
      v -> {
        InputFormatOptions csv = v.next();
        return csv == null ? new InputFormatOptions(null, null) : csv;
      },
      member("Csv", structure("CsvOptions", v -> new InputFormatOptions(v.next(), v.next()),
          member("Delimiter", JsonInput::string), member("HeaderList", JsonInput::strings))));

  /** CreateTable's reader, which reads every member TableCreationParameters has. */
  private static final JsonInput.Reader<TableCreationParameters> TABLE_CREATION_PARAMETERS =
      in -> in.struct("TableCreationParameters", s -> {
        CreateTableRequest c = Requests.CREATE_TABLE.read(s);
        return new TableCreationParameters(c.tableName(), c.attributeDefinitions(),
            c.keySchema(), c.billingMode(), c.provisionedThroughput(), c.onDemandThroughput(),
            c.sseSpecification(), c.globalSecondaryIndexes());
      });

  static final ShapeReader<ImportTableRequest> IMPORT_TABLE = request(
      v -> new ImportTableRequest(v.next(), v.next(), v.next(), v.next(), v.next(), v.next()),
      CLIENT_TOKEN,
      member("S3BucketSource", structure("S3BucketSource",
          v -> new S3BucketSource(v.next(), v.next(), v.next()),
          member("S3BucketOwner", JsonInput::string), member("S3Bucket", JsonInput::string),
          member("S3KeyPrefix", JsonInput::string))),
      member("InputFormat", JsonInput::string), member("InputFormatOptions", FORMAT_OPTIONS),
      member("InputCompressionType", JsonInput::string),
      member("TableCreationParameters", TABLE_CREATION_PARAMETERS));
}
