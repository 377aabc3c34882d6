package io.stator.api;

/** GetResourcePolicy's answer: the policy document as put, and its revision. */
public record GetResourcePolicyResponse(String policy, String revisionId) {}
