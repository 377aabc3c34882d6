package io.stator.api;

/** UntagResource's answer, which has no members. */
public record UntagResourceResponse() {}
