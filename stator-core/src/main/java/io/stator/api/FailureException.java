package io.stator.api;

/** Why Contributor Insights last failed to change (status FAILED). */
public record FailureException(String exceptionName, String exceptionDescription) {}
