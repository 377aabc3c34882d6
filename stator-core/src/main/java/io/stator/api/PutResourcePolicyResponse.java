package io.stator.api;

/** PutResourcePolicy's answer: the policy's new revision. */
public record PutResourcePolicyResponse(String revisionId) {}
