package io.stator.api;

import java.util.List;

/** One page of a table's tags; {@code nextToken} is null on the last page. */
public record ListTagsOfResourceResponse(
    List<Tag> tags,
    String nextToken) {}
