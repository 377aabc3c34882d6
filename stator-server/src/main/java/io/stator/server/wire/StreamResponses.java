package io.stator.server.wire;

import static io.stator.server.wire.Responses.string;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.DescribeStreamResponse;
import io.stator.api.GetRecordsResponse;
import io.stator.api.GetShardIteratorResponse;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListStreamsResponse;
import io.stator.api.Record;
import io.stator.api.Shard;
import io.stator.api.Stream;
import io.stator.api.StreamDescription;
import io.stator.api.StreamRecord;
import java.io.IOException;

/**
 * Writers of the DynamoDB Streams response shapes. Members that are null are left out, as
 * DynamoDB leaves them out; lists DynamoDB always answers ({@code Streams}, {@code Shards},
 * {@code Records}) are written even when empty.
 */
final class StreamResponses {
  private StreamResponses() {}

  static void listStreams(JsonGenerator out, ListStreamsResponse r) throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("Streams");
    for (Stream s : r.streams()) {
      out.writeStartObject();
      string(out, "StreamArn", s.streamArn());
      string(out, "TableName", s.tableName());
      string(out, "StreamLabel", s.streamLabel());
      out.writeEndObject();
    }
    out.writeEndArray();
    string(out, "LastEvaluatedStreamArn", r.lastEvaluatedStreamArn());
    out.writeEndObject();
  }

  static void describeStream(JsonGenerator out, DescribeStreamResponse r) throws IOException {
    StreamDescription d = r.streamDescription();
    out.writeStartObject();
    out.writeObjectFieldStart("StreamDescription");
    string(out, "StreamArn", d.streamArn());
    string(out, "StreamLabel", d.streamLabel());
    string(out, "StreamStatus", d.streamStatus());
    string(out, "StreamViewType", d.streamViewType());
    Responses.timestamp(out, "CreationRequestDateTime", d.creationRequestDateTime());
    string(out, "TableName", d.tableName());
    out.writeArrayFieldStart("KeySchema");
    for (KeySchemaElement k : d.keySchema()) {
      TableResponses.KEY_SCHEMA_ELEMENT.write(out, k);
    }
    out.writeEndArray();
    out.writeArrayFieldStart("Shards");
    for (Shard s : d.shards()) {
      out.writeStartObject();
      string(out, "ShardId", s.shardId());
      out.writeObjectFieldStart("SequenceNumberRange");
      string(out, "StartingSequenceNumber", s.sequenceNumberRange().startingSequenceNumber());
      string(out, "EndingSequenceNumber", s.sequenceNumberRange().endingSequenceNumber());
      out.writeEndObject();
      string(out, "ParentShardId", s.parentShardId());
      out.writeEndObject();
    }
    out.writeEndArray();
    string(out, "LastEvaluatedShardId", d.lastEvaluatedShardId());
    out.writeEndObject();
    out.writeEndObject();
  }

  static void getShardIterator(JsonGenerator out, GetShardIteratorResponse r)
      throws IOException {
    out.writeStartObject();
    string(out, "ShardIterator", r.shardIterator());
    out.writeEndObject();
  }

  static void getRecords(JsonGenerator out, GetRecordsResponse r) throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("Records");
    for (Record record : r.records()) {
      record(out, record);
    }
    out.writeEndArray();
    string(out, "NextShardIterator", r.nextShardIterator());
    out.writeEndObject();
  }

  private static void record(JsonGenerator out, Record r) throws IOException {
    out.writeStartObject();
    string(out, "eventID", r.eventID());
    string(out, "eventName", r.eventName());
    string(out, "eventVersion", r.eventVersion());
    string(out, "eventSource", r.eventSource());
    string(out, "awsRegion", r.awsRegion());
    StreamRecord d = r.dynamodb();
    out.writeObjectFieldStart("dynamodb");
    Responses.timestamp(out, "ApproximateCreationDateTime", d.approximateCreationDateTime());
    out.writeFieldName("Keys");
    Responses.item(out, d.keys());
    if (d.newImage() != null) {
      out.writeFieldName("NewImage");
      Responses.item(out, d.newImage());
    }
    if (d.oldImage() != null) {
      out.writeFieldName("OldImage");
      Responses.item(out, d.oldImage());
    }
    string(out, "SequenceNumber", d.sequenceNumber());
    out.writeNumberField("SizeBytes", d.sizeBytes());
    string(out, "StreamViewType", d.streamViewType());
    out.writeEndObject();
    if (r.userIdentity() != null) {
      out.writeObjectFieldStart("userIdentity");
      string(out, "PrincipalId", r.userIdentity().principalId());
      string(out, "Type", r.userIdentity().type());
      out.writeEndObject();
    }
    out.writeEndObject();
  }
}
