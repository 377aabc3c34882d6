package io.stator.api;

import java.time.Instant;

/** An import, as DescribeImport answers it. Null members are absent, as on the wire. */
public record ImportTableDescription(
    String importArn,
    String importStatus,
    String tableArn,
    String tableId,
    String clientToken,
    S3BucketSource s3BucketSource,
    Long errorCount,
    String inputFormat,
    InputFormatOptions inputFormatOptions,
    String inputCompressionType,
    TableCreationParameters tableCreationParameters,
    Instant startTime,
    Instant endTime,
    Long processedSizeBytes,
    Long processedItemCount,
    Long importedItemCount,
    String failureCode,
    String failureMessage) {}
