package io.stator.api;

/** GetResourcePolicy. Null members are absent, as on the wire. */
public record GetResourcePolicyRequest(String resourceArn) {}
