package io.stator.server.wire;

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
import io.stator.api.Projection;
import io.stator.api.OnDemandThroughput;
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
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Readers of every request shape, member by member, in the spec's PascalCase names. Members the
 * readers do not know are skipped, as DynamoDB ignores them.
 */
final class Requests {
  private Requests() {}

  // ---- tables -------------------------------------------------------------------------------

  static CreateTableRequest createTable(JsonInput in) throws IOException {
    String tableName = null;
    List<AttributeDefinition> attributeDefinitions = null;
    List<KeySchemaElement> keySchema = null;
    List<LocalSecondaryIndex> localSecondaryIndexes = null;
    List<GlobalSecondaryIndex> globalSecondaryIndexes = null;
    String billingMode = null;
    ProvisionedThroughput provisionedThroughput = null;
    StreamSpecification streamSpecification = null;
    List<Tag> tags = null;
    String tableClass = null;
    Boolean deletionProtectionEnabled = null;
    SSESpecification sseSpecification = null;
    OnDemandThroughput onDemandThroughput = null;
    String resourcePolicy = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "ResourcePolicy" -> resourcePolicy = in.string();
        case "AttributeDefinitions" ->
            attributeDefinitions = in.list(Requests::attributeDefinition);
        case "KeySchema" -> keySchema = in.list(Requests::keySchemaElement);
        case "LocalSecondaryIndexes" -> localSecondaryIndexes = in.list(Requests::lsi);
        case "GlobalSecondaryIndexes" -> globalSecondaryIndexes = in.list(Requests::gsi);
        case "BillingMode" -> billingMode = in.string();
        case "ProvisionedThroughput" -> provisionedThroughput = provisionedThroughput(in);
        case "StreamSpecification" -> streamSpecification = streamSpecification(in);
        case "Tags" -> tags = in.list(Requests::tag);
        case "TableClass" -> tableClass = in.string();
        case "DeletionProtectionEnabled" -> deletionProtectionEnabled = in.bool();
        case "SSESpecification" -> sseSpecification = SettingsRequests.sseSpecification(in);
        case "OnDemandThroughput" -> onDemandThroughput = onDemandThroughput(in);
        default -> in.skip();
      }
    }
    return new CreateTableRequest(
        tableName,
        attributeDefinitions,
        keySchema,
        localSecondaryIndexes,
        globalSecondaryIndexes,
        billingMode,
        provisionedThroughput,
        streamSpecification,
        tags,
        tableClass,
        deletionProtectionEnabled,
        sseSpecification,
        onDemandThroughput,
        resourcePolicy);
  }

  static DescribeTableRequest describeTable(JsonInput in) throws IOException {
    return new DescribeTableRequest(tableNameOnly(in));
  }

  static DeleteTableRequest deleteTable(JsonInput in) throws IOException {
    return new DeleteTableRequest(tableNameOnly(in));
  }

  static String tableNameOnly(JsonInput in) throws IOException {
    String tableName = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      if (m.equals("TableName")) {
        tableName = in.string();
      } else {
        in.skip();
      }
    }
    return tableName;
  }

  static ListTablesRequest listTables(JsonInput in) throws IOException {
    String exclusiveStartTableName = null;
    Integer limit = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "ExclusiveStartTableName" -> exclusiveStartTableName = in.string();
        case "Limit" -> limit = in.integer();
        default -> in.skip();
      }
    }
    return new ListTablesRequest(exclusiveStartTableName, limit);
  }

  static UpdateTableRequest updateTable(JsonInput in) throws IOException {
    String tableName = null;
    List<AttributeDefinition> attributeDefinitions = null;
    String billingMode = null;
    ProvisionedThroughput provisionedThroughput = null;
    List<GlobalSecondaryIndexUpdate> globalSecondaryIndexUpdates = null;
    StreamSpecification streamSpecification = null;
    String tableClass = null;
    Boolean deletionProtectionEnabled = null;
    SSESpecification sseSpecification = null;
    OnDemandThroughput onDemandThroughput = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "AttributeDefinitions" ->
            attributeDefinitions = in.list(Requests::attributeDefinition);
        case "BillingMode" -> billingMode = in.string();
        case "ProvisionedThroughput" -> provisionedThroughput = provisionedThroughput(in);
        case "GlobalSecondaryIndexUpdates" ->
            globalSecondaryIndexUpdates = in.list(Requests::gsiUpdate);
        case "StreamSpecification" -> streamSpecification = streamSpecification(in);
        case "TableClass" -> tableClass = in.string();
        case "DeletionProtectionEnabled" -> deletionProtectionEnabled = in.bool();
        case "SSESpecification" -> sseSpecification = SettingsRequests.sseSpecification(in);
        case "OnDemandThroughput" -> onDemandThroughput = onDemandThroughput(in);
        default -> in.skip();
      }
    }
    return new UpdateTableRequest(
        tableName,
        attributeDefinitions,
        billingMode,
        provisionedThroughput,
        globalSecondaryIndexUpdates,
        streamSpecification,
        tableClass,
        deletionProtectionEnabled,
        sseSpecification,
        onDemandThroughput);
  }

  // ---- time to live -------------------------------------------------------------------------

  static UpdateTimeToLiveRequest updateTimeToLive(JsonInput in) throws IOException {
    String tableName = null;
    TimeToLiveSpecification specification = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "TimeToLiveSpecification" -> specification = timeToLiveSpecification(in);
        default -> in.skip();
      }
    }
    return new UpdateTimeToLiveRequest(tableName, specification);
  }

  static DescribeTimeToLiveRequest describeTimeToLive(JsonInput in) throws IOException {
    return new DescribeTimeToLiveRequest(tableNameOnly(in));
  }

  static TimeToLiveSpecification timeToLiveSpecification(JsonInput in) throws IOException {
    return in.struct("TimeToLiveSpecification", s -> {
      Boolean enabled = null;
      String attributeName = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Enabled" -> enabled = s.bool();
          case "AttributeName" -> attributeName = s.string();
          default -> s.skip();
        }
      }
      return new TimeToLiveSpecification(enabled, attributeName);
    });
  }

  // ---- contributor insights ----------------------------------------------------------------

  static UpdateContributorInsightsRequest updateContributorInsights(JsonInput in)
      throws IOException {
    String tableName = null;
    String indexName = null;
    String action = null;
    String mode = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "IndexName" -> indexName = in.string();
        case "ContributorInsightsAction" -> action = in.string();
        case "ContributorInsightsMode" -> mode = in.string();
        default -> in.skip();
      }
    }
    return new UpdateContributorInsightsRequest(tableName, indexName, action, mode);
  }

  static DescribeContributorInsightsRequest describeContributorInsights(JsonInput in)
      throws IOException {
    String tableName = null;
    String indexName = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "IndexName" -> indexName = in.string();
        default -> in.skip();
      }
    }
    return new DescribeContributorInsightsRequest(tableName, indexName);
  }

  static ListContributorInsightsRequest listContributorInsights(JsonInput in)
      throws IOException {
    String tableName = null;
    String nextToken = null;
    Integer maxResults = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "NextToken" -> nextToken = in.string();
        case "MaxResults" -> maxResults = in.integer();
        default -> in.skip();
      }
    }
    return new ListContributorInsightsRequest(tableName, nextToken, maxResults);
  }

  // ---- items --------------------------------------------------------------------------------

  static PutItemRequest putItem(JsonInput in) throws IOException {
    String tableName = null;
    Map<String, AttributeValue> item = null;
    String conditionExpression = null;
    Map<String, String> names = null;
    Map<String, AttributeValue> values = null;
    String returnValues = null;
    String returnConsumedCapacity = null;
    String returnItemCollectionMetrics = null;
    String returnValuesOnConditionCheckFailure = null;
    Map<String, ExpectedAttributeValue> expected = null;
    String conditionalOperator = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "Item" -> item = in.item();
        case "ConditionExpression" -> conditionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "ExpressionAttributeValues" -> values = in.expressionAttributeValues();
        case "ReturnValues" -> returnValues = in.string();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "ReturnItemCollectionMetrics" -> returnItemCollectionMetrics = in.string();
        case "ReturnValuesOnConditionCheckFailure" ->
            returnValuesOnConditionCheckFailure = in.string();
        case "Expected" -> expected = expected(in);
        case "ConditionalOperator" -> conditionalOperator = in.string();
        default -> in.skip();
      }
    }
    return new PutItemRequest(
        tableName,
        item,
        conditionExpression,
        names,
        values,
        returnValues,
        returnConsumedCapacity,
        returnItemCollectionMetrics,
        returnValuesOnConditionCheckFailure,
        expected,
        conditionalOperator);
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

  static DeleteItemRequest deleteItem(JsonInput in) throws IOException {
    String tableName = null;
    Map<String, AttributeValue> key = null;
    String conditionExpression = null;
    Map<String, String> names = null;
    Map<String, AttributeValue> values = null;
    String returnValues = null;
    String returnConsumedCapacity = null;
    String returnItemCollectionMetrics = null;
    String returnValuesOnConditionCheckFailure = null;
    Map<String, ExpectedAttributeValue> expected = null;
    String conditionalOperator = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "Key" -> key = in.item();
        case "ConditionExpression" -> conditionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "ExpressionAttributeValues" -> values = in.expressionAttributeValues();
        case "ReturnValues" -> returnValues = in.string();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "ReturnItemCollectionMetrics" -> returnItemCollectionMetrics = in.string();
        case "ReturnValuesOnConditionCheckFailure" ->
            returnValuesOnConditionCheckFailure = in.string();
        case "Expected" -> expected = expected(in);
        case "ConditionalOperator" -> conditionalOperator = in.string();
        default -> in.skip();
      }
    }
    return new DeleteItemRequest(
        tableName,
        key,
        conditionExpression,
        names,
        values,
        returnValues,
        returnConsumedCapacity,
        returnItemCollectionMetrics,
        returnValuesOnConditionCheckFailure,
        expected,
        conditionalOperator);
  }

  static UpdateItemRequest updateItem(JsonInput in) throws IOException {
    String tableName = null;
    Map<String, AttributeValue> key = null;
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
        case "Key" -> key = in.item();
        case "UpdateExpression" -> updateExpression = in.string();
        case "ConditionExpression" -> conditionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "ExpressionAttributeValues" -> values = in.expressionAttributeValues();
        case "ReturnValues" -> returnValues = in.string();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "ReturnItemCollectionMetrics" -> returnItemCollectionMetrics = in.string();
        case "ReturnValuesOnConditionCheckFailure" ->
            returnValuesOnConditionCheckFailure = in.string();
        case "AttributeUpdates" ->
            attributeUpdates =
                in.map(shape("AttributeValueUpdate"), Requests::attributeValueUpdate);
        case "Expected" -> expected = expected(in);
        case "ConditionalOperator" -> conditionalOperator = in.string();
        default -> in.skip();
      }
    }
    return new UpdateItemRequest(
        tableName,
        key,
        updateExpression,
        conditionExpression,
        names,
        values,
        returnValues,
        returnConsumedCapacity,
        returnItemCollectionMetrics,
        returnValuesOnConditionCheckFailure,
        attributeUpdates,
        expected,
        conditionalOperator);
  }

  // ---- reads of many items ------------------------------------------------------------------

  static QueryRequest query(JsonInput in) throws IOException {
    String tableName = null;
    String indexName = null;
    String select = null;
    Integer limit = null;
    Boolean consistentRead = null;
    Boolean scanIndexForward = null;
    Map<String, AttributeValue> exclusiveStartKey = null;
    String keyConditionExpression = null;
    String filterExpression = null;
    String projectionExpression = null;
    Map<String, String> names = null;
    Map<String, AttributeValue> values = null;
    String returnConsumedCapacity = null;
    List<String> attributesToGet = null;
    Map<String, Condition> keyConditions = null;
    Map<String, Condition> queryFilter = null;
    String conditionalOperator = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "IndexName" -> indexName = in.string();
        case "Select" -> select = in.string();
        case "Limit" -> limit = in.integer();
        case "ConsistentRead" -> consistentRead = in.bool();
        case "ScanIndexForward" -> scanIndexForward = in.bool();
        case "ExclusiveStartKey" -> exclusiveStartKey = in.item();
        case "KeyConditionExpression" -> keyConditionExpression = in.string();
        case "FilterExpression" -> filterExpression = in.string();
        case "ProjectionExpression" -> projectionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "ExpressionAttributeValues" -> values = in.expressionAttributeValues();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "AttributesToGet" -> attributesToGet = in.strings();
        case "KeyConditions" -> keyConditions = conditions(in);
        case "QueryFilter" -> queryFilter = conditions(in);
        case "ConditionalOperator" -> conditionalOperator = in.string();
        default -> in.skip();
      }
    }
    return new QueryRequest(
        tableName,
        indexName,
        select,
        limit,
        consistentRead,
        scanIndexForward,
        exclusiveStartKey,
        keyConditionExpression,
        filterExpression,
        projectionExpression,
        names,
        values,
        returnConsumedCapacity,
        attributesToGet,
        keyConditions,
        queryFilter,
        conditionalOperator);
  }

  static ScanRequest scan(JsonInput in) throws IOException {
    String tableName = null;
    String indexName = null;
    String select = null;
    Integer limit = null;
    Boolean consistentRead = null;
    Map<String, AttributeValue> exclusiveStartKey = null;
    Integer segment = null;
    Integer totalSegments = null;
    String filterExpression = null;
    String projectionExpression = null;
    Map<String, String> names = null;
    Map<String, AttributeValue> values = null;
    String returnConsumedCapacity = null;
    List<String> attributesToGet = null;
    Map<String, Condition> scanFilter = null;
    String conditionalOperator = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> tableName = in.string();
        case "IndexName" -> indexName = in.string();
        case "Select" -> select = in.string();
        case "Limit" -> limit = in.integer();
        case "ConsistentRead" -> consistentRead = in.bool();
        case "ExclusiveStartKey" -> exclusiveStartKey = in.item();
        case "Segment" -> segment = in.integer();
        case "TotalSegments" -> totalSegments = in.integer();
        case "FilterExpression" -> filterExpression = in.string();
        case "ProjectionExpression" -> projectionExpression = in.string();
        case "ExpressionAttributeNames" -> names = in.stringMap();
        case "ExpressionAttributeValues" -> values = in.expressionAttributeValues();
        case "ReturnConsumedCapacity" -> returnConsumedCapacity = in.string();
        case "AttributesToGet" -> attributesToGet = in.strings();
        case "ScanFilter" -> scanFilter = conditions(in);
        case "ConditionalOperator" -> conditionalOperator = in.string();
        default -> in.skip();
      }
    }
    return new ScanRequest(
        tableName,
        indexName,
        select,
        limit,
        consistentRead,
        exclusiveStartKey,
        segment,
        totalSegments,
        filterExpression,
        projectionExpression,
        names,
        values,
        returnConsumedCapacity,
        attributesToGet,
        scanFilter,
        conditionalOperator);
  }

  // ---- member structures --------------------------------------------------------------------

  private static String shape(String name) {
    return "com.amazonaws.dynamodb.v20120810." + name;
  }

  static AttributeDefinition attributeDefinition(JsonInput in) throws IOException {
    return in.struct("AttributeDefinition", s -> {
      String name = null;
      String type = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "AttributeName" -> name = s.string();
          case "AttributeType" -> type = s.string();
          default -> s.skip();
        }
      }
      return new AttributeDefinition(name, type);
    });
  }

  static KeySchemaElement keySchemaElement(JsonInput in) throws IOException {
    return in.struct("KeySchemaElement", s -> {
      String name = null;
      String type = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "AttributeName" -> name = s.string();
          case "KeyType" -> type = s.string();
          default -> s.skip();
        }
      }
      return new KeySchemaElement(name, type);
    });
  }

  static Projection projection(JsonInput in) throws IOException {
    return in.struct("Projection", s -> {
      String type = null;
      List<String> nonKeyAttributes = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "ProjectionType" -> type = s.string();
          case "NonKeyAttributes" -> nonKeyAttributes = s.strings();
          default -> s.skip();
        }
      }
      return new Projection(type, nonKeyAttributes);
    });
  }

  static ProvisionedThroughput provisionedThroughput(JsonInput in) throws IOException {
    return in.struct("ProvisionedThroughput", s -> {
      Long read = null;
      Long write = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "ReadCapacityUnits" -> read = s.longValue();
          case "WriteCapacityUnits" -> write = s.longValue();
          default -> s.skip();
        }
      }
      return new ProvisionedThroughput(read, write);
    });
  }

  static OnDemandThroughput onDemandThroughput(JsonInput in) throws IOException {
    return in.struct("OnDemandThroughput", s -> {
      Long read = null;
      Long write = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "MaxReadRequestUnits" -> read = s.longValue();
          case "MaxWriteRequestUnits" -> write = s.longValue();
          default -> s.skip();
        }
      }
      return new OnDemandThroughput(read, write);
    });
  }

  static StreamSpecification streamSpecification(JsonInput in) throws IOException {
    return in.struct("StreamSpecification", s -> {
      Boolean enabled = null;
      String viewType = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "StreamEnabled" -> enabled = s.bool();
          case "StreamViewType" -> viewType = s.string();
          default -> s.skip();
        }
      }
      return new StreamSpecification(enabled, viewType);
    });
  }

  static Tag tag(JsonInput in) throws IOException {
    return in.struct("Tag", s -> {
      String key = null;
      String value = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Key" -> key = s.string();
          case "Value" -> value = s.string();
          default -> s.skip();
        }
      }
      return new Tag(key, value);
    });
  }

  static LocalSecondaryIndex lsi(JsonInput in) throws IOException {
    return in.struct("LocalSecondaryIndex", s -> {
      String indexName = null;
      List<KeySchemaElement> keySchema = null;
      Projection projection = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "IndexName" -> indexName = s.string();
          case "KeySchema" -> keySchema = s.list(Requests::keySchemaElement);
          case "Projection" -> projection = projection(s);
          default -> s.skip();
        }
      }
      return new LocalSecondaryIndex(indexName, keySchema, projection);
    });
  }

  static GlobalSecondaryIndex gsi(JsonInput in) throws IOException {
    return in.struct("GlobalSecondaryIndex", s -> {
      String indexName = null;
      List<KeySchemaElement> keySchema = null;
      Projection projection = null;
      ProvisionedThroughput throughput = null;
      OnDemandThroughput onDemand = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "IndexName" -> indexName = s.string();
          case "KeySchema" -> keySchema = s.list(Requests::keySchemaElement);
          case "Projection" -> projection = projection(s);
          case "ProvisionedThroughput" -> throughput = provisionedThroughput(s);
          case "OnDemandThroughput" -> onDemand = onDemandThroughput(s);
          default -> s.skip();
        }
      }
      return new GlobalSecondaryIndex(indexName, keySchema, projection, throughput, onDemand);
    });
  }

  static GlobalSecondaryIndexUpdate gsiUpdate(JsonInput in) throws IOException {
    return in.struct("GlobalSecondaryIndexUpdate", s -> {
      CreateGlobalSecondaryIndexAction create = null;
      UpdateGlobalSecondaryIndexAction update = null;
      DeleteGlobalSecondaryIndexAction delete = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "Create" -> create = createGsiAction(s);
          case "Update" -> update = updateGsiAction(s);
          case "Delete" -> delete = deleteGsiAction(s);
          default -> s.skip();
        }
      }
      return new GlobalSecondaryIndexUpdate(create, update, delete);
    });
  }

  private static CreateGlobalSecondaryIndexAction createGsiAction(JsonInput in)
      throws IOException {
    return in.struct("CreateGlobalSecondaryIndexAction", s -> {
      String indexName = null;
      List<KeySchemaElement> keySchema = null;
      Projection projection = null;
      ProvisionedThroughput throughput = null;
      OnDemandThroughput onDemand = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "IndexName" -> indexName = s.string();
          case "KeySchema" -> keySchema = s.list(Requests::keySchemaElement);
          case "Projection" -> projection = projection(s);
          case "ProvisionedThroughput" -> throughput = provisionedThroughput(s);
          case "OnDemandThroughput" -> onDemand = onDemandThroughput(s);
          default -> s.skip();
        }
      }
      return new CreateGlobalSecondaryIndexAction(
          indexName, keySchema, projection, throughput, onDemand);
    });
  }

  private static UpdateGlobalSecondaryIndexAction updateGsiAction(JsonInput in)
      throws IOException {
    return in.struct("UpdateGlobalSecondaryIndexAction", s -> {
      String indexName = null;
      ProvisionedThroughput throughput = null;
      OnDemandThroughput onDemand = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        switch (m) {
          case "IndexName" -> indexName = s.string();
          case "ProvisionedThroughput" -> throughput = provisionedThroughput(s);
          case "OnDemandThroughput" -> onDemand = onDemandThroughput(s);
          default -> s.skip();
        }
      }
      return new UpdateGlobalSecondaryIndexAction(indexName, throughput, onDemand);
    });
  }

  private static DeleteGlobalSecondaryIndexAction deleteGsiAction(JsonInput in)
      throws IOException {
    return in.struct("DeleteGlobalSecondaryIndexAction", s -> {
      String indexName = null;
      for (String m = s.nextMember(); m != null; m = s.nextMember()) {
        if (m.equals("IndexName")) {
          indexName = s.string();
        } else {
          s.skip();
        }
      }
      return new DeleteGlobalSecondaryIndexAction(indexName);
    });
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
