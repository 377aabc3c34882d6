package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.ExecuteStatementResponse;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.util.Map;

/** Writers of the PartiQL operations' responses. */
final class StatementResponses {
  private StatementResponses() {}

  /** Items is always there, empty for a write that returns nothing, as DynamoDB answers. */
  static void executeStatement(JsonGenerator out, ExecuteStatementResponse r) throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("Items");
    for (Map<String, AttributeValue> item : r.items()) {
      Responses.item(out, item);
    }
    out.writeEndArray();
    if (r.nextToken() != null) {
      out.writeStringField("NextToken", r.nextToken());
    }
    if (r.consumedCapacity() != null) {
      out.writeFieldName("ConsumedCapacity");
      Responses.consumedCapacity(out, r.consumedCapacity());
    }
    if (r.lastEvaluatedKey() != null) {
      out.writeFieldName("LastEvaluatedKey");
      Responses.item(out, r.lastEvaluatedKey());
    }
    out.writeEndObject();
  }
}
