package io.stator.api;

import java.time.Instant;

/**
 * ExportTableToPointInTime: the table {@code tableArn} as of {@code exportTime} (now when null)
 * written as files under {@code s3Bucket} and {@code s3Prefix}, which Stator reads as a directory
 * under its export directory (see {@code docs/compatibility.md}). Null members are absent.
 */
public record ExportTableToPointInTimeRequest(
    String tableArn,
    Instant exportTime,
    String clientToken,
    String s3Bucket,
    String s3BucketOwner,
    String s3Prefix,
    String s3SseAlgorithm,
    String s3SseKmsKeyId,
    String exportFormat,
    String exportType,
    IncrementalExportSpecification incrementalExportSpecification) {}
