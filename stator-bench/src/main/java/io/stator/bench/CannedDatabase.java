package io.stator.bench;

import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchGetItemResponse;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.CreateTableRequest;
import io.stator.api.CreateTableResponse;
import io.stator.api.Database;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteItemResponse;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DeleteTableResponse;
import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DescribeContinuousBackupsResponse;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeContributorInsightsResponse;
import io.stator.api.DescribeEndpointsRequest;
import io.stator.api.DescribeEndpointsResponse;
import io.stator.api.DescribeLimitsRequest;
import io.stator.api.DescribeLimitsResponse;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DescribeTableResponse;
import io.stator.api.DescribeTimeToLiveRequest;
import io.stator.api.DescribeTimeToLiveResponse;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.api.ListContributorInsightsRequest;
import io.stator.api.ListContributorInsightsResponse;
import io.stator.api.ListTablesRequest;
import io.stator.api.ListTablesResponse;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.ListTagsOfResourceResponse;
import io.stator.api.PutItemRequest;
import io.stator.api.PutItemResponse;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.TagResourceRequest;
import io.stator.api.TagResourceResponse;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactGetItemsResponse;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactWriteItemsResponse;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UntagResourceResponse;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.api.UpdateContinuousBackupsResponse;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateContributorInsightsResponse;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateItemResponse;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTableResponse;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.api.UpdateTimeToLiveResponse;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Database that answers GetItem, PutItem and Query with fixed responses of the benchmark's
 * shape, so that a benchmark through the wire protocol measures only JSON reading and writing.
 */
final class CannedDatabase implements Database {
  private final GetItemResponse get = new GetItemResponse(Data.item(7, 3, 73), null);
  private final PutItemResponse put = new PutItemResponse(null, null, null);
  private final QueryResponse query;

  CannedDatabase() {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    for (int sk = 0; sk < Data.PER_PARTITION; sk++) {
      items.add(Data.item(7, sk, 70 + sk));
    }
    query = new QueryResponse(items, items.size(), items.size(), null, null);
  }

  @Override
  public GetItemResponse getItem(GetItemRequest request) {
    return get;
  }

  @Override
  public PutItemResponse putItem(PutItemRequest request) {
    return put;
  }

  @Override
  public QueryResponse query(QueryRequest request) {
    return query;
  }

  @Override
  public CreateTableResponse createTable(CreateTableRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DescribeTableResponse describeTable(DescribeTableRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ListTablesResponse listTables(ListTablesRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DeleteTableResponse deleteTable(DeleteTableRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public UpdateTableResponse updateTable(UpdateTableRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DeleteItemResponse deleteItem(DeleteItemRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public UpdateItemResponse updateItem(UpdateItemRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ScanResponse scan(ScanRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public UpdateContributorInsightsResponse updateContributorInsights(
      UpdateContributorInsightsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DescribeContributorInsightsResponse describeContributorInsights(
      DescribeContributorInsightsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ListContributorInsightsResponse listContributorInsights(
      ListContributorInsightsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public TagResourceResponse tagResource(TagResourceRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public UntagResourceResponse untagResource(UntagResourceRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ListTagsOfResourceResponse listTagsOfResource(ListTagsOfResourceRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DescribeContinuousBackupsResponse describeContinuousBackups(
      DescribeContinuousBackupsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public UpdateContinuousBackupsResponse updateContinuousBackups(
      UpdateContinuousBackupsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DescribeLimitsResponse describeLimits(DescribeLimitsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public DescribeEndpointsResponse describeEndpoints(DescribeEndpointsRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void close() {}
}
