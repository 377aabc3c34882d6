package io.stator.api;

/** DescribeContinuousBackups' answer. */
public record DescribeContinuousBackupsResponse(
    ContinuousBackupsDescription continuousBackupsDescription) {}
