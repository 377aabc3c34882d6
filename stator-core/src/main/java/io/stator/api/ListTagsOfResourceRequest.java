package io.stator.api;

/** ListTagsOfResource. Null members are absent, as on the wire. */
public record ListTagsOfResourceRequest(
    String resourceArn,
    String nextToken) {}
