/**
 * The embedded API: {@link io.stator.api.Database}, one method per DynamoDB operation, and its
 * request and response records, named and shaped as in DynamoDB's API reference. A {@code null}
 * member means the member is absent, as in a request that leaves it out. Client mistakes are
 * {@link io.stator.api.DynamoDbException}s carrying DynamoDB's error type and message.
 *
 * <p>Every request record, and every record a request holds, has a builder generated at compile
 * time beside it ({@code QueryRequest} has {@code QueryRequestBuilder}), so a request names
 * only the members it sets:
 *
 * <pre>{@code
 * QueryResponse page = db.query(QueryRequestBuilder.builder()
 *     .tableName("Orders")
 *     .keyConditionExpression("customer = :c")
 *     .expressionAttributeValues(Map.of(":c", new AttributeValue.S("c-42")))
 *     .build());
 * }</pre>
 *
 * <p>DynamoDB's string enums are enums here too, of the same names and constants ({@link
 * io.stator.api.KeyType}, {@link io.stator.api.BillingMode}, {@link io.stator.api.TableStatus},
 * ...): the records hold the wire string ({@code BillingMode.PAY_PER_REQUEST.name()}), so that
 * a request carries exactly what its client sent and a value DynamoDB does not know gets the
 * ValidationException DynamoDB answers.
 */
@RecordBuilder.Include({
    AttributeDefinition.class, AttributeValueUpdate.class, BatchExecuteStatementRequest.class,
    BatchGetItemRequest.class, BatchStatementRequest.class, BatchWriteItemRequest.class,
    Condition.class, ConditionCheck.class, CreateBackupRequest.class,
    CreateGlobalSecondaryIndexAction.class, CreateTableRequest.class, Delete.class,
    DeleteBackupRequest.class, DeleteGlobalSecondaryIndexAction.class, DeleteItemRequest.class,
    DeleteRequest.class, DeleteResourcePolicyRequest.class, DeleteTableRequest.class,
    DescribeBackupRequest.class, DescribeContinuousBackupsRequest.class,
    DescribeContributorInsightsRequest.class, DescribeEndpointsRequest.class,
    DescribeExportRequest.class, DescribeImportRequest.class, DescribeLimitsRequest.class,
    DescribeStreamRequest.class, DescribeTableRequest.class, DescribeTimeToLiveRequest.class,
    ExecuteStatementRequest.class, ExecuteTransactionRequest.class, ExpectedAttributeValue.class,
    ExportTableToPointInTimeRequest.class, Get.class, GetItemRequest.class, GetRecordsRequest.class,
    GetResourcePolicyRequest.class, GetShardIteratorRequest.class, GlobalSecondaryIndex.class,
    GlobalSecondaryIndexUpdate.class, ImportTableRequest.class,
    IncrementalExportSpecification.class, InputFormatOptions.class, KeySchemaElement.class,
    KeysAndAttributes.class, ListBackupsRequest.class, ListContributorInsightsRequest.class,
    ListExportsRequest.class, ListImportsRequest.class, ListStreamsRequest.class,
    ListTablesRequest.class, ListTagsOfResourceRequest.class, LocalSecondaryIndex.class,
    OnDemandThroughput.class, ParameterizedStatement.class, PointInTimeRecoverySpecification.class,
    Projection.class, ProvisionedThroughput.class, Put.class, PutItemRequest.class,
    PutRequest.class, PutResourcePolicyRequest.class, QueryRequest.class,
    RestoreTableFromBackupRequest.class, RestoreTableToPointInTimeRequest.class,
    S3BucketSource.class, SSESpecification.class, ScanRequest.class, ShardFilter.class,
    StreamSpecification.class, TableCreationParameters.class, Tag.class, TagResourceRequest.class,
    TimeToLiveSpecification.class, TransactGetItem.class, TransactGetItemsRequest.class,
    TransactWriteItem.class, TransactWriteItemsRequest.class, UntagResourceRequest.class,
    Update.class, UpdateContinuousBackupsRequest.class, UpdateContributorInsightsRequest.class,
    UpdateGlobalSecondaryIndexAction.class, UpdateItemRequest.class, UpdateTableRequest.class,
    UpdateTimeToLiveRequest.class, WriteRequest.class
})
@RecordBuilder.Options(enableWither = false)
package io.stator.api;

import io.soabase.recordbuilder.core.RecordBuilder;
