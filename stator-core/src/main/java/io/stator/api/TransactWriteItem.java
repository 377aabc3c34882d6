package io.stator.api;

/** One action of a TransactWriteItems: exactly one member is set. */
public record TransactWriteItem(
    ConditionCheck conditionCheck, Put put, Delete delete, Update update) {}
