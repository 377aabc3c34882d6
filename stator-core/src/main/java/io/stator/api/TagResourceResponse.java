package io.stator.api;

/** TagResource's answer, which has no members. */
public record TagResourceResponse() {}
