package io.stator.api;

/** DeleteResourcePolicy. Null members are absent, as on the wire. */
public record DeleteResourcePolicyRequest(String resourceArn, String expectedRevisionId) {}
