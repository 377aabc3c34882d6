package io.stator.api;

import java.time.Instant;

/** One import in ListImports. Null members are absent, as on the wire. */
public record ImportSummary(
    String importArn,
    String importStatus,
    String tableArn,
    S3BucketSource s3BucketSource,
    String inputFormat,
    Instant startTime,
    Instant endTime) {}
