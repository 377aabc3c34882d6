package io.stator.api;

/** DeleteResourcePolicy's answer: the revision deleted, null when there was no policy. */
public record DeleteResourcePolicyResponse(String revisionId) {}
