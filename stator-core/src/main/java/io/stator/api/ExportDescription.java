package io.stator.api;

import java.time.Instant;

/** An export, as DescribeExport answers it. Null members are absent, as on the wire. */
public record ExportDescription(
    String exportArn,
    String exportStatus,
    Instant startTime,
    Instant endTime,
    String exportManifest,
    String tableArn,
    String tableId,
    Instant exportTime,
    String clientToken,
    String s3Bucket,
    String s3BucketOwner,
    String s3Prefix,
    String s3SseAlgorithm,
    String s3SseKmsKeyId,
    String failureCode,
    String failureMessage,
    String exportFormat,
    Long billedSizeBytes,
    Long itemCount,
    String exportType,
    IncrementalExportSpecification incrementalExportSpecification) {}
