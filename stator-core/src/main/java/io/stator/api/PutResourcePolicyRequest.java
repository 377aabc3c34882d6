package io.stator.api;

/** PutResourcePolicy. Null members are absent, as on the wire. */
public record PutResourcePolicyRequest(
    String resourceArn,
    String policy,
    String expectedRevisionId,
    Boolean confirmRemoveSelfResourceAccess) {}
