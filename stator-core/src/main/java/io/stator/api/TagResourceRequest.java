package io.stator.api;

import java.util.List;

/** TagResource: adds or replaces tags of the table with ARN {@code resourceArn}. */
public record TagResourceRequest(
    String resourceArn,
    List<Tag> tags) {}
