package io.stator.server.wire;

import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.ConditionCheck;
import io.stator.api.Delete;
import io.stator.api.DeleteRequest;
import io.stator.api.Get;
import io.stator.api.KeysAndAttributes;
import io.stator.api.Put;
import io.stator.api.PutRequest;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.Update;
import io.stator.api.WriteRequest;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Readers of the requests on many items: BatchGetItem, BatchWriteItem, TransactWriteItems and
 * TransactGetItems, member by member as in {@link Requests}.
 */
final class MultiItemRequests {
  private static final String SHAPE = "com.amazonaws.dynamodb.v20120810.";

  private MultiItemRequests() {}

  // ---- batches ------------------------------------------------------------------------------

  static BatchGetItemRequest batchGetItem(JsonInput in) throws IOException {
    Map<String, KeysAndAttributes> requestItems = null;
    String returnConsumedCapacity = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "RequestItems" ->
            requestItems =
                in.map(SHAPE + "KeysAndAttributes", MultiItemRequests::keysAndAttributes);
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        default -> in.skip();
      }
    }
    return new BatchGetItemRequest(requestItems, returnConsumedCapacity);
  }

  static KeysAndAttributes keysAndAttributes(JsonInput in) throws IOException {
    return in.struct("KeysAndAttributes", s -> {
      List<Map<String, AttributeValue>> keys = null;
      List<String> attributesToGet = null;
      Boolean consistentRead = null;
      String projectionExpression = null;
      Map<String, String> names = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Keys" -> keys = s.list(JsonInput::item);
          case "AttributesToGet" -> attributesToGet = s.strings();
          case "ConsistentRead" -> consistentRead = s.bool();
          case "ProjectionExpression" -> projectionExpression = s.string();
          case "ExpressionAttributeNames" -> names = s.stringMap();
          default -> s.skip();
        }
      }
      return new KeysAndAttributes(
          keys, attributesToGet, consistentRead, projectionExpression, names);
    });
  }

  static BatchWriteItemRequest batchWriteItem(JsonInput in) throws IOException {
    Map<String, List<WriteRequest>> requestItems = null;
    String returnConsumedCapacity = null;
    String returnItemCollectionMetrics = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "RequestItems" ->
            requestItems = in.map(
                "java.util.List<" + SHAPE + "WriteRequest>",
                s -> s.list(MultiItemRequests::writeRequest));
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "ReturnItemCollectionMetrics" -> returnItemCollectionMetrics = in.string();
        default -> in.skip();
      }
    }
    return new BatchWriteItemRequest(
        requestItems, returnConsumedCapacity, returnItemCollectionMetrics);
  }

  static WriteRequest writeRequest(JsonInput in) throws IOException {
    return in.struct("WriteRequest", s -> {
      PutRequest put = null;
      DeleteRequest delete = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "PutRequest" -> put = s.struct("PutRequest", p -> {
            Map<String, AttributeValue> item = null;
            for (String n = p.nextMember(); n != null; n = p.nextMember()) {
              if (n.equals("Item")) {
                item = p.item();
              } else {
                p.skip();
              }
            }
            return new PutRequest(item);
          });
          case "DeleteRequest" -> delete = s.struct("DeleteRequest", d -> {
            Map<String, AttributeValue> key = null;
            for (String n = d.nextMember(); n != null; n = d.nextMember()) {
              if (n.equals("Key")) {
                key = d.item();
              } else {
                d.skip();
              }
            }
            return new DeleteRequest(key);
          });
          default -> s.skip();
        }
      }
      return new WriteRequest(put, delete);
    });
  }

  // ---- transactions -------------------------------------------------------------------------

  static TransactWriteItemsRequest transactWriteItems(JsonInput in) throws IOException {
    List<TransactWriteItem> items = null;
    String returnConsumedCapacity = null;
    String returnItemCollectionMetrics = null;
    String clientRequestToken = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TransactItems" -> items = in.list(MultiItemRequests::transactWriteItem);
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "ReturnItemCollectionMetrics" -> returnItemCollectionMetrics = in.string();
        case "ClientRequestToken" -> clientRequestToken = in.string();
        default -> in.skip();
      }
    }
    return new TransactWriteItemsRequest(
        items, returnConsumedCapacity, returnItemCollectionMetrics, clientRequestToken);
  }

  /** The members shared by the four transactional write actions. */
  private static final class Action {
    Map<String, AttributeValue> key;
    Map<String, AttributeValue> item;
    String tableName;
    String updateExpression;
    String conditionExpression;
    Map<String, String> names;
    Map<String, AttributeValue> values;
    String returnValuesOnConditionCheckFailure;

    static Action read(JsonInput s) throws IOException {
      Action a = new Action();
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Key" -> a.key = s.item();
          case "Item" -> a.item = s.item();
          case "TableName" -> a.tableName = s.string();
          case "UpdateExpression" -> a.updateExpression = s.string();
          case "ConditionExpression" -> a.conditionExpression = s.string();
          case "ExpressionAttributeNames" -> a.names = s.stringMap();
          case "ExpressionAttributeValues" -> a.values = s.item();
          case "ReturnValuesOnConditionCheckFailure" ->
              a.returnValuesOnConditionCheckFailure = s.string();
          default -> s.skip();
        }
      }
      return a;
    }
  }

  static TransactWriteItem transactWriteItem(JsonInput in) throws IOException {
    return in.struct("TransactWriteItem", s -> {
      ConditionCheck check = null;
      Put put = null;
      Delete delete = null;
      Update update = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "ConditionCheck" -> check = s.struct("ConditionCheck", x -> {
            Action a = Action.read(x);
            return new ConditionCheck(a.key, a.tableName, a.conditionExpression, a.names,
                a.values, a.returnValuesOnConditionCheckFailure);
          });
          case "Put" -> put = s.struct("Put", x -> {
            Action a = Action.read(x);
            return new Put(a.item, a.tableName, a.conditionExpression, a.names, a.values,
                a.returnValuesOnConditionCheckFailure);
          });
          case "Delete" -> delete = s.struct("Delete", x -> {
            Action a = Action.read(x);
            return new Delete(a.key, a.tableName, a.conditionExpression, a.names, a.values,
                a.returnValuesOnConditionCheckFailure);
          });
          case "Update" -> update = s.struct("Update", x -> {
            Action a = Action.read(x);
            return new Update(a.key, a.updateExpression, a.tableName, a.conditionExpression,
                a.names, a.values, a.returnValuesOnConditionCheckFailure);
          });
          default -> s.skip();
        }
      }
      return new TransactWriteItem(check, put, delete, update);
    });
  }

  static TransactGetItemsRequest transactGetItems(JsonInput in) throws IOException {
    List<TransactGetItem> items = null;
    String returnConsumedCapacity = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TransactItems" -> items = in.list(MultiItemRequests::transactGetItem);
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        default -> in.skip();
      }
    }
    return new TransactGetItemsRequest(items, returnConsumedCapacity);
  }

  static TransactGetItem transactGetItem(JsonInput in) throws IOException {
    return in.struct("TransactGetItem", s -> {
      Get get = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        if (m.equals("Get")) {
          get = s.struct("Get", g -> {
            Map<String, AttributeValue> key = null;
            String tableName = null;
            String projectionExpression = null;
            Map<String, String> names = null;
            for (String n = g.nextMember(); n != null; n = g.nextMember()) {
              switch (n) {
                case "Key" -> key = g.item();
                case "TableName" -> tableName = g.string();
                case "ProjectionExpression" -> projectionExpression = g.string();
                case "ExpressionAttributeNames" -> names = g.stringMap();
                default -> g.skip();
              }
            }
            return new Get(key, tableName, projectionExpression, names);
          });
        } else {
          s.skip();
        }
      }
      return new TransactGetItem(get);
    });
  }
}
