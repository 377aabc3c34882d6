package io.stator.api;

import java.util.List;

/** GetRecords' answer; {@code nextShardIterator} null once a closed shard is read to its end. */
public record GetRecordsResponse(
    List<Record> records, String nextShardIterator) {}
