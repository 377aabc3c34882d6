package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.BatchExecuteStatementResponse;
import io.stator.api.BatchStatementResponse;
import io.stator.api.ConsumedCapacity;
import io.stator.api.ExecuteStatementResponse;
import io.stator.api.ExecuteTransactionResponse;
import io.stator.api.TransactGetItemsResponse;
import io.stator.api.TransactWriteItemsResponse;
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

  static void batchExecuteStatement(JsonGenerator out, BatchExecuteStatementResponse r)
      throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("Responses");
    for (BatchStatementResponse response : r.responses()) {
      out.writeStartObject();
      if (response.error() != null) {
        out.writeObjectFieldStart("Error");
        out.writeStringField("Code", response.error().code());
        out.writeStringField("Message", response.error().message());
        if (response.error().item() != null) {
          out.writeFieldName("Item");
          Responses.item(out, response.error().item());
        }
        out.writeEndObject();
      }
      out.writeStringField("TableName", response.tableName());
      if (response.item() != null) {
        out.writeFieldName("Item");
        Responses.item(out, response.item());
      }
      out.writeEndObject();
    }
    out.writeEndArray();
    if (r.consumedCapacity() != null) {
      out.writeArrayFieldStart("ConsumedCapacity");
      for (ConsumedCapacity capacity : r.consumedCapacity()) {
        Responses.consumedCapacity(out, capacity);
      }
      out.writeEndArray();
    }
    out.writeEndObject();
  }

  /** A transaction of reads answers as TransactGetItems, one of writes as TransactWriteItems. */
  static void executeTransaction(JsonGenerator out, ExecuteTransactionResponse r)
      throws IOException {
    if (r.responses() != null) {
      MultiItemResponses.transactGetItems(
          out, new TransactGetItemsResponse(r.consumedCapacity(), r.responses()));
    } else {
      MultiItemResponses.transactWriteItems(
          out, new TransactWriteItemsResponse(r.consumedCapacity(), null));
    }
  }
}
