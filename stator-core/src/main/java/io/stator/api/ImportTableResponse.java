package io.stator.api;

public record ImportTableResponse(ImportTableDescription importTableDescription) {}
