package io.stator.api;

/**
 * ImportTable: a new table made from {@code tableCreationParameters}, filled with the items of
 * the files under {@code s3BucketSource} (a directory under Stator's export directory, see {@code
 * docs/compatibility.md}). Null members are absent.
 */
public record ImportTableRequest(
    String clientToken,
    S3BucketSource s3BucketSource,
    String inputFormat,
    InputFormatOptions inputFormatOptions,
    String inputCompressionType,
    TableCreationParameters tableCreationParameters) {}
