package io.stator.server.wire;

import static io.stator.server.wire.ShapeReader.member;
import static io.stator.server.wire.ShapeReader.request;
import static io.stator.server.wire.ShapeReader.structure;

import io.stator.api.AttributeDefinition;
import io.stator.api.AttributeValueUpdate;
import io.stator.api.Condition;
import io.stator.api.CreateGlobalSecondaryIndexAction;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteGlobalSecondaryIndexAction;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DescribeTimeToLiveRequest;
import io.stator.api.ExpectedAttributeValue;
import io.stator.api.GetItemRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.GlobalSecondaryIndexUpdate;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListContributorInsightsRequest;
import io.stator.api.ListTablesRequest;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.OnDemandThroughput;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.SSESpecification;
import io.stator.api.ScanRequest;
import io.stator.api.StreamSpecification;
import io.stator.api.Tag;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateGlobalSecondaryIndexAction;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.server.wire.ShapeReader.Member;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Readers of every request shape, member by member, in the spec's PascalCase names. Members the
 * readers do not know are skipped, as DynamoDB ignores them. The table operations' shapes are
 * described as {@link ShapeReader}s; the item operations keep loops of their own, which
 * allocate nothing besides the request.
 */
final class Requests {
  private Requests() {}

  static final Member TABLE_NAME = member("TableName", JsonInput::string);
  static final Member INDEX_NAME = member("IndexName", JsonInput::string);

  // ---- structures of the table operations ---------------------------------------------------

  static final ShapeReader<AttributeDefinition> ATTRIBUTE_DEFINITION = structure(
      "AttributeDefinition", v -> new AttributeDefinition(v.next(), v.next()),
      member("AttributeName", JsonInput::string), member("AttributeType", JsonInput::string));

  static final ShapeReader<KeySchemaElement> KEY_SCHEMA_ELEMENT = structure(
      "KeySchemaElement", v -> new KeySchemaElement(v.next(), v.next()),
      member("AttributeName", JsonInput::string), member("KeyType", JsonInput::string));

  static final ShapeReader<Projection> PROJECTION = structure(
      "Projection", v -> new Projection(v.next(), v.next()),
      member("ProjectionType", JsonInput::string), member("NonKeyAttributes", JsonInput::strings));

  static final ShapeReader<ProvisionedThroughput> PROVISIONED_THROUGHPUT = structure(
      "ProvisionedThroughput", v -> new ProvisionedThroughput(v.next(), v.next()),
      member("ReadCapacityUnits", JsonInput::longValue),
      member("WriteCapacityUnits", JsonInput::longValue));

  static final ShapeReader<OnDemandThroughput> ON_DEMAND_THROUGHPUT = structure(
      "OnDemandThroughput", v -> new OnDemandThroughput(v.next(), v.next()),
      member("MaxReadRequestUnits", JsonInput::longValue),
      member("MaxWriteRequestUnits", JsonInput::longValue));

  static final ShapeReader<StreamSpecification> STREAM_SPECIFICATION = structure(
      "StreamSpecification", v -> new StreamSpecification(v.next(), v.next()),
      member("StreamEnabled", JsonInput::bool), member("StreamViewType", JsonInput::string));

  static final ShapeReader<SSESpecification> SSE_SPECIFICATION = structure(
      "SSESpecification", v -> new SSESpecification(v.next(), v.next(), v.next()),
      member("Enabled", JsonInput::bool), member("SSEType", JsonInput::string),
      member("KMSMasterKeyId", JsonInput::string));

  static final ShapeReader<Tag> TAG = structure("Tag", v -> new Tag(v.next(), v.next()),
      member("Key", JsonInput::string), member("Value", JsonInput::string));

  private static final Member KEY_SCHEMA = member("KeySchema", in -> in.list(KEY_SCHEMA_ELEMENT));
  private static final Member INDEX_PROJECTION = member("Projection", PROJECTION);
  private static final Member THROUGHPUT =
      member("ProvisionedThroughput", PROVISIONED_THROUGHPUT);
  private static final Member ON_DEMAND = member("OnDemandThroughput", ON_DEMAND_THROUGHPUT);

  static final ShapeReader<LocalSecondaryIndex> LSI = structure(
      "LocalSecondaryIndex", v -> new LocalSecondaryIndex(v.next(), v.next(), v.next()),
      INDEX_NAME, KEY_SCHEMA, INDEX_PROJECTION);

  static final ShapeReader<GlobalSecondaryIndex> GSI = structure(
      "GlobalSecondaryIndex",
      v -> new GlobalSecondaryIndex(v.next(), v.next(), v.next(), v.next(), v.next()),
      INDEX_NAME, KEY_SCHEMA, INDEX_PROJECTION, THROUGHPUT, ON_DEMAND);

  private static final ShapeReader<GlobalSecondaryIndexUpdate> GSI_UPDATE = structure(
      "GlobalSecondaryIndexUpdate",
      v -> new GlobalSecondaryIndexUpdate(v.next(), v.next(), v.next()),
      member("Create", structure("CreateGlobalSecondaryIndexAction",
          v -> new CreateGlobalSecondaryIndexAction(
              v.next(), v.next(), v.next(), v.next(), v.next()),
          INDEX_NAME, KEY_SCHEMA, INDEX_PROJECTION, THROUGHPUT, ON_DEMAND)),
      member("Update", structure("UpdateGlobalSecondaryIndexAction",
          v -> new UpdateGlobalSecondaryIndexAction(v.next(), v.next(), v.next()),
          INDEX_NAME, THROUGHPUT, ON_DEMAND)),
      member("Delete", structure("DeleteGlobalSecondaryIndexAction",
          v -> new DeleteGlobalSecondaryIndexAction(v.next()), INDEX_NAME)));

  private static final Member ATTRIBUTE_DEFINITIONS =
      member("AttributeDefinitions", in -> in.list(ATTRIBUTE_DEFINITION));

  // ---- tables -------------------------------------------------------------------------------

  static final ShapeReader<CreateTableRequest> CREATE_TABLE = request(
      v -> new CreateTableRequest(v.next(), v.next(), v.next(), v.next(), v.next(), v.next(),
          v.next(), v.next(), v.next(), v.next(), v.next(), v.next(), v.next(), v.next()),
      TABLE_NAME, ATTRIBUTE_DEFINITIONS, KEY_SCHEMA,
      member("LocalSecondaryIndexes", in -> in.list(LSI)),
      member("GlobalSecondaryIndexes", in -> in.list(GSI)),
      member("BillingMode", JsonInput::string), THROUGHPUT,
      member("StreamSpecification", STREAM_SPECIFICATION), member("Tags", in -> in.list(TAG)),
      member("TableClass", JsonInput::string),
      member("DeletionProtectionEnabled", JsonInput::bool),
      member("SSESpecification", SSE_SPECIFICATION), ON_DEMAND,
      member("ResourcePolicy", JsonInput::string));

  static final ShapeReader<DescribeTableRequest> DESCRIBE_TABLE =
      request(v -> new DescribeTableRequest(v.next()), TABLE_NAME);

  static final ShapeReader<DeleteTableRequest> DELETE_TABLE =
      request(v -> new DeleteTableRequest(v.next()), TABLE_NAME);

  static final ShapeReader<ListTablesRequest> LIST_TABLES = request(
      v -> new ListTablesRequest(v.next(), v.next()),
      member("ExclusiveStartTableName", JsonInput::string), member("Limit", JsonInput::integer));

  static final ShapeReader<UpdateTableRequest> UPDATE_TABLE = request(
      v -> new UpdateTableRequest(v.next(), v.next(), v.next(), v.next(), v.next(), v.next(),
          v.next(), v.next(), v.next(), v.next()),
      TABLE_NAME, ATTRIBUTE_DEFINITIONS, member("BillingMode", JsonInput::string),
      THROUGHPUT, member("GlobalSecondaryIndexUpdates", in -> in.list(GSI_UPDATE)),
      member("StreamSpecification", STREAM_SPECIFICATION),
      member("TableClass", JsonInput::string),
      member("DeletionProtectionEnabled", JsonInput::bool),
      member("SSESpecification", SSE_SPECIFICATION), ON_DEMAND);

  // ---- time to live -------------------------------------------------------------------------

  static final ShapeReader<UpdateTimeToLiveRequest> UPDATE_TIME_TO_LIVE = request(
      v -> new UpdateTimeToLiveRequest(v.next(), v.next()), TABLE_NAME,
      member("TimeToLiveSpecification", structure("TimeToLiveSpecification",
          v -> new TimeToLiveSpecification(v.next(), v.next()),
          member("Enabled", JsonInput::bool), member("AttributeName", JsonInput::string))));

  static final ShapeReader<DescribeTimeToLiveRequest> DESCRIBE_TIME_TO_LIVE =
      request(v -> new DescribeTimeToLiveRequest(v.next()), TABLE_NAME);

  // ---- contributor insights ----------------------------------------------------------------

  static final ShapeReader<UpdateContributorInsightsRequest> UPDATE_CONTRIBUTOR_INSIGHTS =
      request(v -> new UpdateContributorInsightsRequest(v.next(), v.next(), v.next(), v.next()),
          TABLE_NAME, INDEX_NAME, member("ContributorInsightsAction", JsonInput::string),
          member("ContributorInsightsMode", JsonInput::string));

  static final ShapeReader<DescribeContributorInsightsRequest> DESCRIBE_CONTRIBUTOR_INSIGHTS =
      request(v -> new DescribeContributorInsightsRequest(v.next(), v.next()),
          TABLE_NAME, INDEX_NAME);

  static final ShapeReader<ListContributorInsightsRequest> LIST_CONTRIBUTOR_INSIGHTS = request(
      v -> new ListContributorInsightsRequest(v.next(), v.next(), v.next()), TABLE_NAME,
      member("NextToken", JsonInput::string), member("MaxResults", JsonInput::integer));

  // ---- items --------------------------------------------------------------------------------

  /**
   * The members of PutItem, DeleteItem and UpdateItem, which are the same but for the item
   * (PutItem's Item, the others' Key) and UpdateItem's UpdateExpression and AttributeUpdates.
   * One loop reads them all, with no allocation of its own: each operation's constructor takes
   * what its record has and drops the rest, which its request never holds.
   */
  @FunctionalInterface
  private interface ItemWrite<R> {
    R create(String tableName, Map<String, AttributeValue> itemOrKey, String updateExpression,
        String conditionExpression, Map<String, String> names, Map<String, AttributeValue> values,
        String returnValues, String returnConsumedCapacity, String returnItemCollectionMetrics,
        String returnValuesOnConditionCheckFailure,
        Map<String, AttributeValueUpdate> attributeUpdates,
        Map<String, ExpectedAttributeValue> expected, String conditionalOperator);
  }

  static PutItemRequest putItem(JsonInput in) throws IOException {
    return itemWrite(in, "Item", false, (t, item, u, c, n, v, rv, rc, rm, rf, au, e, o) ->
        new PutItemRequest(t, item, c, n, v, rv, rc, rm, rf, e, o));
  }

  static DeleteItemRequest deleteItem(JsonInput in) throws IOException {
    return itemWrite(in, "Key", false, (t, key, u, c, n, v, rv, rc, rm, rf, au, e, o) ->
        new DeleteItemRequest(t, key, c, n, v, rv, rc, rm, rf, e, o));
  }

  static UpdateItemRequest updateItem(JsonInput in) throws IOException {
    return itemWrite(in, "Key", true, UpdateItemRequest::new);
  }

  /**
   * Reads an item write's members; {@code itemMember} names its item or key, and {@code update}
   * says whether it is an UpdateItem. A member of another of the three is skipped unread, as
   * any member the operation does not know.
   */
  private static <R> R itemWrite(
      JsonInput in, String itemMember, boolean update, ItemWrite<R> request) throws IOException {
    String tableName = null;
    Map<String, AttributeValue> item = null;
    String updateExpression = null;
    String conditionExpression = null;
    Map<String, String> names = null;
    Map<String, AttributeValue> values = null;
    String returnValues = null;
    String returnConsumedCapacity = null;
    String returnItemCollectionMetrics = null;
    String returnValuesOnConditionCheckFailure = null;
    Map<String, AttributeValueUpdate> attributeUpdates = null;
    Map<String, ExpectedAttributeValue> expected = null;
    String conditionalOperator = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "Item", "Key" -> {
          if (m.equals(itemMember)) {
            item = in.item();
          } else {
            in.skip();
          }
        }
        case "UpdateExpression" -> {
          if (update) {
            updateExpression = in.string();
          } else {
            in.skip();
          }
        }
        case "ConditionExpression" -> conditionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "ExpressionAttributeValues" -> values = in.expressionAttributeValues();
        case "ReturnValues" -> returnValues = in.string();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "ReturnItemCollectionMetrics" -> returnItemCollectionMetrics = in.string();
        case "ReturnValuesOnConditionCheckFailure" ->
            returnValuesOnConditionCheckFailure = in.string();
        case "AttributeUpdates" -> {
          if (update) {
            attributeUpdates =
                in.map(shape("AttributeValueUpdate"), Requests::attributeValueUpdate);
          } else {
            in.skip();
          }
        }
        case "Expected" -> expected = expected(in);
        case "ConditionalOperator" -> conditionalOperator = in.string();
        default -> in.skip();
      }
    }
    return request.create(tableName, item, updateExpression, conditionExpression, names, values,
        returnValues, returnConsumedCapacity, returnItemCollectionMetrics,
        returnValuesOnConditionCheckFailure, attributeUpdates, expected, conditionalOperator);
  }

  static GetItemRequest getItem(JsonInput in) throws IOException {
    String tableName = null;
    Map<String, AttributeValue> key = null;
    Boolean consistentRead = null;
    String projectionExpression = null;
    Map<String, String> names = null;
    List<String> attributesToGet = null;
    String returnConsumedCapacity = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "Key" -> key = in.item();
        case "ConsistentRead" -> consistentRead = in.bool();
        case "ProjectionExpression" -> projectionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "AttributesToGet" -> attributesToGet = in.strings();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        default -> in.skip();
      }
    }
    return new GetItemRequest(
        tableName,
        key,
        consistentRead,
        projectionExpression,
        names,
        attributesToGet,
        returnConsumedCapacity);
  }


  // ---- reads of many items ------------------------------------------------------------------

  /**
   * The members of Query and Scan, most of them shared: Query's own are ScanIndexForward,
   * KeyConditionExpression, KeyConditions and QueryFilter, Scan's Segment, TotalSegments and
   * ScanFilter. One loop reads both, as {@link ItemWrite} does the item writes.
   */
  @FunctionalInterface
  private interface Page<R> {
    R create(String tableName, String indexName, String select, Integer limit,
        Boolean consistentRead, Boolean scanIndexForward,
        Map<String, AttributeValue> exclusiveStartKey, String keyConditionExpression,
        Integer segment, Integer totalSegments, String filterExpression,
        String projectionExpression, Map<String, String> names, Map<String, AttributeValue> values,
        String returnConsumedCapacity, List<String> attributesToGet,
        Map<String, Condition> keyConditions, Map<String, Condition> filter,
        String conditionalOperator);
  }

  static QueryRequest query(JsonInput in) throws IOException {
    return page(in, true, (t, i, s, l, c, f, k, kce, sg, ts, fe, pe, n, v, rc, ag, kc, qf, o) ->
        new QueryRequest(t, i, s, l, c, f, k, kce, fe, pe, n, v, rc, ag, kc, qf, o));
  }

  static ScanRequest scan(JsonInput in) throws IOException {
    return page(in, false, (t, i, s, l, c, f, k, kce, sg, ts, fe, pe, n, v, rc, ag, kc, sf, o) ->
        new ScanRequest(t, i, s, l, c, k, sg, ts, fe, pe, n, v, rc, ag, sf, o));
  }

  /** Reads a Query's members if {@code query}, else a Scan's; the other's are skipped unread. */
  private static <R> R page(JsonInput in, boolean query, Page<R> request) throws IOException {
    String tableName = null;
    String indexName = null;
    String select = null;
    Integer limit = null;
    Boolean consistentRead = null;
    Boolean scanIndexForward = null;
    Map<String, AttributeValue> exclusiveStartKey = null;
    String keyConditionExpression = null;
    Integer segment = null;
    Integer totalSegments = null;
    String filterExpression = null;
    String projectionExpression = null;
    Map<String, String> names = null;
    Map<String, AttributeValue> values = null;
    String returnConsumedCapacity = null;
    List<String> attributesToGet = null;
    Map<String, Condition> keyConditions = null;
    Map<String, Condition> filter = null;
    String conditionalOperator = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "IndexName" -> indexName = in.string();
        case "Select" -> select = in.string();
        case "Limit" -> limit = in.integer();
        case "ConsistentRead" -> consistentRead = in.bool();
        case "ExclusiveStartKey" -> exclusiveStartKey = in.item();
        case "FilterExpression" -> filterExpression = in.string();
        case "ProjectionExpression" -> projectionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "ExpressionAttributeValues" -> values = in.expressionAttributeValues();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "AttributesToGet" -> attributesToGet = in.strings();
        case "ConditionalOperator" -> conditionalOperator = in.string();
        case "ScanIndexForward", "KeyConditionExpression", "KeyConditions", "QueryFilter" -> {
          if (!query) {
            in.skip();
          } else if (m.equals("ScanIndexForward")) {
            scanIndexForward = in.bool();
          } else if (m.equals("KeyConditionExpression")) {
            keyConditionExpression = in.string();
          } else if (m.equals("KeyConditions")) {
            keyConditions = conditions(in);
          } else {
            filter = conditions(in);
          }
        }
        case "Segment", "TotalSegments", "ScanFilter" -> {
          if (query) {
            in.skip();
          } else if (m.equals("Segment")) {
            segment = in.integer();
          } else if (m.equals("TotalSegments")) {
            totalSegments = in.integer();
          } else {
            filter = conditions(in);
          }
        }
        default -> in.skip();
      }
    }
    return request.create(tableName, indexName, select, limit, consistentRead, scanIndexForward,
        exclusiveStartKey, keyConditionExpression, segment, totalSegments, filterExpression,
        projectionExpression, names, values, returnConsumedCapacity, attributesToGet,
        keyConditions, filter, conditionalOperator);
  }
  // ---- the legacy conditional parameters of the item operations ----------------------------

  private static String shape(String name) {
    return "com.amazonaws.dynamodb.v20120810." + name;
  }


  private static Map<String, ExpectedAttributeValue> expected(JsonInput in) throws IOException {
    return in.map(shape("ExpectedAttributeValue"), Requests::expectedAttributeValue);
  }

  static ExpectedAttributeValue expectedAttributeValue(JsonInput in) throws IOException {
    return in.struct("ExpectedAttributeValue", s -> {
      AttributeValue value = null;
      Boolean exists = null;
      String operator = null;
      List<AttributeValue> list = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Value" -> value = s.attributeValue();
          case "Exists" -> exists = s.bool();
          case "ComparisonOperator" -> operator = s.string();
          case "AttributeValueList" -> list = s.attributeValueList();
          default -> s.skip();
        }
      }
      return new ExpectedAttributeValue(value, exists, operator, list);
    });
  }

  private static Map<String, Condition> conditions(JsonInput in) throws IOException {
    return in.map(shape("Condition"), Requests::condition);
  }

  static Condition condition(JsonInput in) throws IOException {
    return in.struct("Condition", s -> {
      List<AttributeValue> list = null;
      String operator = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "AttributeValueList" -> list = s.attributeValueList();
          case "ComparisonOperator" -> operator = s.string();
          default -> s.skip();
        }
      }
      return new Condition(list, operator);
    });
  }

  static AttributeValueUpdate attributeValueUpdate(JsonInput in) throws IOException {
    return in.struct("AttributeValueUpdate", s -> {
      AttributeValue value = null;
      String action = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Value" -> value = s.attributeValue();
          case "Action" -> action = s.string();
          default -> s.skip();
        }
      }
      return new AttributeValueUpdate(value, action);
    });
  }
}
