package io.stator.engine;

import io.stator.EngineOptions;
import io.stator.api.*;
import io.stator.storage.Storage;

/** The engine behind {@link Database}. To be written. */
public final class Engine implements Database {
  private final Storage storage;
  private final EngineOptions options;

  public Engine(Storage storage, EngineOptions options) {
    this.storage = storage;
    this.options = options;
  }

  private static UnsupportedOperationException todo() {
    return new UnsupportedOperationException("not yet");
  }

  @Override public CreateTableResponse createTable(CreateTableRequest r) { throw todo(); }
  @Override public DescribeTableResponse describeTable(DescribeTableRequest r) { throw todo(); }
  @Override public ListTablesResponse listTables(ListTablesRequest r) { throw todo(); }
  @Override public DeleteTableResponse deleteTable(DeleteTableRequest r) { throw todo(); }
  @Override public UpdateTableResponse updateTable(UpdateTableRequest r) { throw todo(); }
  @Override public PutItemResponse putItem(PutItemRequest r) { throw todo(); }
  @Override public GetItemResponse getItem(GetItemRequest r) { throw todo(); }
  @Override public DeleteItemResponse deleteItem(DeleteItemRequest r) { throw todo(); }
  @Override public UpdateItemResponse updateItem(UpdateItemRequest r) { throw todo(); }
  @Override public QueryResponse query(QueryRequest r) { throw todo(); }
  @Override public ScanResponse scan(ScanRequest r) { throw todo(); }
  @Override public void close() { storage.close(); }
}
