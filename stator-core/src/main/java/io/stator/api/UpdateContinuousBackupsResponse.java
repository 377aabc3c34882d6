package io.stator.api;

/** UpdateContinuousBackups' answer: the setting as it now is. */
public record UpdateContinuousBackupsResponse(
    ContinuousBackupsDescription continuousBackupsDescription) {}
