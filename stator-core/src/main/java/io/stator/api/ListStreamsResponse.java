package io.stator.api;

import java.util.List;

/** ListStreams' answer: the streams, and where to continue when there are more. */
public record ListStreamsResponse(
    List<Stream> streams, String lastEvaluatedStreamArn) {}
