package io.stator.api;

import java.util.List;

/** ListTables result. */
public record ListTablesResponse(
    List<String> tableNames,
    String lastEvaluatedTableName) {}
