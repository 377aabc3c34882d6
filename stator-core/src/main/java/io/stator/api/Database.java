package io.stator.api;


/**
 * A DynamoDB database: one method per DynamoDB operation, with DynamoDB's semantics and errors.
 *
 * <p>This is the embedded API. The HTTP server is a front door to the same methods. Every method
 * either returns its response or throws a {@link DynamoDbException} carrying DynamoDB's error
 * type and message; a client mistake never leaves a partial write behind.
 *
 * <p>The Streams API (DynamoDB Streams' four operations) is part of it: every database from
 * {@code Stator.open} serves it; one that keeps no streams answers UnknownOperationException.
 *
 * <p>Implementations are thread-safe.
 */
public interface Database extends DynamoDbStreams, AutoCloseable {

  @Override
  default ListStreamsResponse listStreams(ListStreamsRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  @Override
  default DescribeStreamResponse describeStream(DescribeStreamRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  @Override
  default GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  @Override
  default GetRecordsResponse getRecords(GetRecordsRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  CreateTableResponse createTable(CreateTableRequest request);

  DescribeTableResponse describeTable(DescribeTableRequest request);

  ListTablesResponse listTables(ListTablesRequest request);

  DeleteTableResponse deleteTable(DeleteTableRequest request);

  UpdateTableResponse updateTable(UpdateTableRequest request);

  PutItemResponse putItem(PutItemRequest request);

  GetItemResponse getItem(GetItemRequest request);

  DeleteItemResponse deleteItem(DeleteItemRequest request);

  UpdateItemResponse updateItem(UpdateItemRequest request);

  QueryResponse query(QueryRequest request);

  ScanResponse scan(ScanRequest request);

  BatchGetItemResponse batchGetItem(BatchGetItemRequest request);

  BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request);

  /**
   * Applies all actions atomically or none; a failure is a {@link TransactionCanceledException}
   * with one reason per action.
   */
  TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request);

  /** Reads the items from one serializable snapshot. */
  TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request);

  /**
   * Runs one PartiQL statement as DynamoDB does: as the PutItem, GetItem, UpdateItem or
   * DeleteItem it stands for; a database that does not speak PartiQL answers
   * UnknownOperationException.
   */
  default ExecuteStatementResponse executeStatement(ExecuteStatementRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  /**
   * Runs up to 25 PartiQL statements, all reads (each of one item) or all writes; each succeeds
   * or fails on its own, its failure reported in its response.
   */
  default BatchExecuteStatementResponse batchExecuteStatement(
      BatchExecuteStatementRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  /**
   * Runs up to 100 PartiQL statements, all reads or all writes, as one TransactGetItems or
   * TransactWriteItems: all apply or none.
   */
  default ExecuteTransactionResponse executeTransaction(ExecuteTransactionRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest request);

  /**
   * Attaches a resource-based policy to a table or stream (see {@code docs/security.md}); a
   * database that keeps none answers UnknownOperationException.
   */
  default PutResourcePolicyResponse putResourcePolicy(PutResourcePolicyRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default GetResourcePolicyResponse getResourcePolicy(GetResourcePolicyRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default DeleteResourcePolicyResponse deleteResourcePolicy(DeleteResourcePolicyRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest request);

  UpdateContributorInsightsResponse updateContributorInsights(
      UpdateContributorInsightsRequest request);

  DescribeContributorInsightsResponse describeContributorInsights(
      DescribeContributorInsightsRequest request);

  ListContributorInsightsResponse listContributorInsights(ListContributorInsightsRequest request);

  TagResourceResponse tagResource(TagResourceRequest request);

  UntagResourceResponse untagResource(UntagResourceRequest request);

  ListTagsOfResourceResponse listTagsOfResource(ListTagsOfResourceRequest request);

  /** The point-in-time recovery setting (Stator records it; it keeps no history to restore). */
  DescribeContinuousBackupsResponse describeContinuousBackups(
      DescribeContinuousBackupsRequest request);

  UpdateContinuousBackupsResponse updateContinuousBackups(UpdateContinuousBackupsRequest request);

  /**
   * Backs a table up on demand (see {@code docs/compatibility.md}); a database that keeps no
   * backups answers UnknownOperationException, as do the other backup operations.
   */
  default CreateBackupResponse createBackup(CreateBackupRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default DescribeBackupResponse describeBackup(DescribeBackupRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default ListBackupsResponse listBackups(ListBackupsRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default DeleteBackupResponse deleteBackup(DeleteBackupRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  /**
   * Restores a backup to a new table, which is CREATING until its items are written (see
   * {@code docs/compatibility.md}).
   */
  default RestoreTableFromBackupResponse restoreTableFromBackup(
      RestoreTableFromBackupRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  /**
   * Restores a table with point-in-time recovery enabled, as of a time in its window, to a new
   * table, which is CREATING until its items are written (see {@code docs/compatibility.md}).
   */
  default RestoreTableToPointInTimeResponse restoreTableToPointInTime(
      RestoreTableToPointInTimeRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  /**
   * Exports a table with point-in-time recovery enabled, as of a time in its window, as files in
   * a directory under the export directory; the export goes on in the background (see {@code
   * docs/compatibility.md}).
   */
  default ExportTableToPointInTimeResponse exportTableToPointInTime(
      ExportTableToPointInTimeRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default DescribeExportResponse describeExport(DescribeExportRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default ListExportsResponse listExports(ListExportsRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  /**
   * Makes a new table and fills it, in the background, with the items of files in a directory
   * under the export directory (see {@code docs/compatibility.md}).
   */
  default ImportTableResponse importTable(ImportTableRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default DescribeImportResponse describeImport(DescribeImportRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  default ListImportsResponse listImports(ListImportsRequest request) {
    throw new DynamoDbException(ErrorType.UnknownOperationException, null);
  }

  DescribeLimitsResponse describeLimits(DescribeLimitsRequest request);

  /**
   * The regional endpoint. An embedded database answers DynamoDB's address for its region; the
   * server answers the address it was reached at.
   */
  DescribeEndpointsResponse describeEndpoints(DescribeEndpointsRequest request);

  /** Closes the database and the storage under it. */
  @Override
  void close();
}
