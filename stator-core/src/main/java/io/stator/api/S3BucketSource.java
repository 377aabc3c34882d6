package io.stator.api;

/** Where an import's files are: every file whose key starts with {@code s3KeyPrefix}. */
public record S3BucketSource(String s3BucketOwner, String s3Bucket, String s3KeyPrefix) {}
