package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.BatchGetItemResponse;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.CancellationReason;
import io.stator.api.ConsumedCapacity;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.ItemResponse;
import io.stator.api.KeysAndAttributes;
import io.stator.api.TransactGetItemsResponse;
import io.stator.api.TransactWriteItemsResponse;
import io.stator.api.WriteRequest;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Writers of the responses on many items, and of the cancellation reasons of a
 * TransactionCanceledException.
 */
final class MultiItemResponses {
  private MultiItemResponses() {}

  static void batchGetItem(JsonGenerator out, BatchGetItemResponse r) throws IOException {
    out.writeStartObject();
    out.writeObjectFieldStart("Responses");
    for (Map.Entry<String, List<Map<String, AttributeValue>>> e : r.responses().entrySet()) {
      out.writeArrayFieldStart(e.getKey());
      for (Map<String, AttributeValue> item : e.getValue()) {
        Responses.item(out, item);
      }
      out.writeEndArray();
    }
    out.writeEndObject();
    // DynamoDB always answers UnprocessedKeys, empty when every key was read.
    out.writeObjectFieldStart("UnprocessedKeys");
    for (Map.Entry<String, KeysAndAttributes> e : r.unprocessedKeys().entrySet()) {
      out.writeFieldName(e.getKey());
      keysAndAttributes(out, e.getValue());
    }
    out.writeEndObject();
    consumedCapacity(out, r.consumedCapacity());
    out.writeEndObject();
  }

  private static void keysAndAttributes(JsonGenerator out, KeysAndAttributes k)
      throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("Keys");
    for (Map<String, AttributeValue> key : k.keys()) {
      Responses.item(out, key);
    }
    out.writeEndArray();
    if (k.attributesToGet() != null) {
      out.writeArrayFieldStart("AttributesToGet");
      for (String name : k.attributesToGet()) {
        out.writeString(name);
      }
      out.writeEndArray();
    }
    if (k.consistentRead() != null) {
      out.writeBooleanField("ConsistentRead", k.consistentRead());
    }
    if (k.projectionExpression() != null) {
      out.writeStringField("ProjectionExpression", k.projectionExpression());
    }
    if (k.expressionAttributeNames() != null) {
      out.writeObjectFieldStart("ExpressionAttributeNames");
      for (Map.Entry<String, String> e : k.expressionAttributeNames().entrySet()) {
        out.writeStringField(e.getKey(), e.getValue());
      }
      out.writeEndObject();
    }
    out.writeEndObject();
  }

  static void batchWriteItem(JsonGenerator out, BatchWriteItemResponse r) throws IOException {
    out.writeStartObject();
    // DynamoDB always answers UnprocessedItems, empty when every write was applied.
    out.writeObjectFieldStart("UnprocessedItems");
    for (Map.Entry<String, List<WriteRequest>> e : r.unprocessedItems().entrySet()) {
      out.writeArrayFieldStart(e.getKey());
      for (WriteRequest w : e.getValue()) {
        writeRequest(out, w);
      }
      out.writeEndArray();
    }
    out.writeEndObject();
    itemCollectionMetrics(out, r.itemCollectionMetrics());
    consumedCapacity(out, r.consumedCapacity());
    out.writeEndObject();
  }

  private static void writeRequest(JsonGenerator out, WriteRequest w) throws IOException {
    out.writeStartObject();
    if (w.putRequest() != null) {
      out.writeObjectFieldStart("PutRequest");
      out.writeFieldName("Item");
      Responses.item(out, w.putRequest().item());
      out.writeEndObject();
    }
    if (w.deleteRequest() != null) {
      out.writeObjectFieldStart("DeleteRequest");
      out.writeFieldName("Key");
      Responses.item(out, w.deleteRequest().key());
      out.writeEndObject();
    }
    out.writeEndObject();
  }

  static void transactWriteItems(JsonGenerator out, TransactWriteItemsResponse r)
      throws IOException {
    out.writeStartObject();
    consumedCapacity(out, r.consumedCapacity());
    itemCollectionMetrics(out, r.itemCollectionMetrics());
    out.writeEndObject();
  }

  static void transactGetItems(JsonGenerator out, TransactGetItemsResponse r)
      throws IOException {
    out.writeStartObject();
    consumedCapacity(out, r.consumedCapacity());
    out.writeArrayFieldStart("Responses");
    for (ItemResponse response : r.responses()) {
      // An item that does not exist is an empty ItemResponse.
      out.writeStartObject();
      if (response.item() != null) {
        out.writeFieldName("Item");
        Responses.item(out, response.item());
      }
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  /** The CancellationReasons member of a TransactionCanceledException body. */
  static void cancellationReasons(JsonGenerator out, List<CancellationReason> reasons)
      throws IOException {
    out.writeArrayFieldStart("CancellationReasons");
    for (CancellationReason reason : reasons) {
      out.writeStartObject();
      if (reason.item() != null) {
        out.writeFieldName("Item");
        Responses.item(out, reason.item());
      }
      out.writeStringField("Code", reason.code());
      if (reason.message() != null) {
        out.writeStringField("Message", reason.message());
      }
      out.writeEndObject();
    }
    out.writeEndArray();
  }

  private static void consumedCapacity(JsonGenerator out, List<ConsumedCapacity> capacity)
      throws IOException {
    if (capacity != null) {
      out.writeArrayFieldStart("ConsumedCapacity");
      for (ConsumedCapacity c : capacity) {
        Responses.consumedCapacity(out, c);
      }
      out.writeEndArray();
    }
  }

  private static void itemCollectionMetrics(
      JsonGenerator out, Map<String, List<ItemCollectionMetrics>> metrics) throws IOException {
    if (metrics != null) {
      out.writeObjectFieldStart("ItemCollectionMetrics");
      for (Map.Entry<String, List<ItemCollectionMetrics>> e : metrics.entrySet()) {
        out.writeArrayFieldStart(e.getKey());
        for (ItemCollectionMetrics m : e.getValue()) {
          Responses.itemCollectionMetrics(out, m);
        }
        out.writeEndArray();
      }
      out.writeEndObject();
    }
  }
}
