package io.stator.api;

/** DescribeContinuousBackups; {@code tableName} may be the table's ARN. */
public record DescribeContinuousBackupsRequest(
    String tableName) implements TableRequest {}
