package io.stator.api;

/** UpdateContinuousBackups; {@code tableName} may be the table's ARN. */
public record UpdateContinuousBackupsRequest(
    String tableName,
    PointInTimeRecoverySpecification pointInTimeRecoverySpecification) implements TableRequest {}
