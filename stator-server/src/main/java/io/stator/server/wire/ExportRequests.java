package io.stator.server.wire;

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
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** Readers of the export and import operations' requests; unknown members are skipped. */
final class ExportRequests {
  private ExportRequests() {}

  static ExportTableToPointInTimeRequest exportTableToPointInTime(JsonInput in)
      throws IOException {
    String tableArn = null;
    Instant time = null;
    String token = null;
    String bucket = null;
    String owner = null;
    String prefix = null;
    String sse = null;
    String kms = null;
    String format = null;
    String type = null;
    IncrementalExportSpecification incremental = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableArn" -> tableArn = in.string();
        case "ExportTime" -> time = in.timestamp();
        case "ClientToken" -> token = in.string();
        case "S3Bucket" -> bucket = in.string();
        case "S3BucketOwner" -> owner = in.string();
        case "S3Prefix" -> prefix = in.string();
        case "S3SseAlgorithm" -> sse = in.string();
        case "S3SseKmsKeyId" -> kms = in.string();
        case "ExportFormat" -> format = in.string();
        case "ExportType" -> type = in.string();
        case "IncrementalExportSpecification" -> incremental = incremental(in);
        default -> in.skip();
      }
    }
    return new ExportTableToPointInTimeRequest(tableArn, time, token, bucket, owner, prefix, sse,
        kms, format, type, incremental);
  }

  private static IncrementalExportSpecification incremental(JsonInput in) throws IOException {
    return in.struct("IncrementalExportSpecification", s -> {
      Instant from = null;
      Instant to = null;
      String view = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "ExportFromTime" -> from = s.timestamp();
          case "ExportToTime" -> to = s.timestamp();
          case "ExportViewType" -> view = s.string();
          default -> s.skip();
        }
      }
      return new IncrementalExportSpecification(from, to, view);
    });
  }

  static DescribeExportRequest describeExport(JsonInput in) throws IOException {
    return new DescribeExportRequest(only(in, "ExportArn"));
  }

  static DescribeImportRequest describeImport(JsonInput in) throws IOException {
    return new DescribeImportRequest(only(in, "ImportArn"));
  }

  private static String only(JsonInput in, String member) throws IOException {
    String value = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      if (m.equals(member)) {
        value = in.string();
      } else {
        in.skip();
      }
    }
    return value;
  }

  static ListExportsRequest listExports(JsonInput in) throws IOException {
    String table = null;
    Integer max = null;
    String token = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableArn" -> table = in.string();
        case "MaxResults" -> max = in.integer();
        case "NextToken" -> token = in.string();
        default -> in.skip();
      }
    }
    return new ListExportsRequest(table, max, token);
  }

  static ListImportsRequest listImports(JsonInput in) throws IOException {
    String table = null;
    Integer size = null;
    String token = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableArn" -> table = in.string();
        case "PageSize" -> size = in.integer();
        case "NextToken" -> token = in.string();
        default -> in.skip();
      }
    }
    return new ListImportsRequest(table, size, token);
  }

  static ImportTableRequest importTable(JsonInput in) throws IOException {
    String token = null;
    S3BucketSource source = null;
    String format = null;
    InputFormatOptions options = null;
    String compression = null;
    TableCreationParameters table = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ClientToken" -> token = in.string();
        case "S3BucketSource" -> source = bucketSource(in);
        case "InputFormat" -> format = in.string();
        case "InputFormatOptions" -> options = formatOptions(in);
        case "InputCompressionType" -> compression = in.string();
        case "TableCreationParameters" -> table = tableCreationParameters(in);
        default -> in.skip();
      }
    }
    return new ImportTableRequest(token, source, format, options, compression, table);
  }

  private static S3BucketSource bucketSource(JsonInput in) throws IOException {
    return in.struct("S3BucketSource", s -> {
      String owner = null;
      String bucket = null;
      String prefix = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "S3BucketOwner" -> owner = s.string();
          case "S3Bucket" -> bucket = s.string();
          case "S3KeyPrefix" -> prefix = s.string();
          default -> s.skip();
        }
      }
      return new S3BucketSource(owner, bucket, prefix);
    });
  }

  private static InputFormatOptions formatOptions(JsonInput in) throws IOException {
    return in.struct("InputFormatOptions", s -> {
      InputFormatOptions options = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        if (m.equals("Csv")) {
          options = s.struct("CsvOptions", csv -> {
            String delimiter = null;
            List<String> header = null;
            for (String c = csv.nextMember(); c != null; c = csv.nextMember()) {
              switch (c) {
                case "Delimiter" -> delimiter = csv.string();
                case "HeaderList" -> header = csv.strings();
                default -> csv.skip();
              }
            }
            return new InputFormatOptions(delimiter, header);
          });
        } else {
          s.skip();
        }
      }
      return options == null ? new InputFormatOptions(null, null) : options;
    });
  }

  /** CreateTable's reader, which reads every member TableCreationParameters has. */
  private static TableCreationParameters tableCreationParameters(JsonInput in)
      throws IOException {
    return in.struct("TableCreationParameters", s -> {
      CreateTableRequest c = Requests.createTable(s);
      return new TableCreationParameters(c.tableName(), c.attributeDefinitions(), c.keySchema(),
          c.billingMode(), c.provisionedThroughput(), c.onDemandThroughput(),
          c.sseSpecification(), c.globalSecondaryIndexes());
    });
  }
}
