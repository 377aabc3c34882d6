package io.stator.api;

import java.util.List;

/** UntagResource: removes the tags with the given keys from the table with that ARN. */
public record UntagResourceRequest(
    String resourceArn,
    List<String> tagKeys) {}
