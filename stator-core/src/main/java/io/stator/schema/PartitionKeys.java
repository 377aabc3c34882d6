package io.stator.schema;

/**
 * The partition key attribute of a table or index, from the definition a database holds and
 * without the sizes DescribeTable reads: access control asks it, per request, for the values of
 * {@code dynamodb:LeadingKeys}. Every database from {@code Stator.open} offers it.
 */
public interface PartitionKeys {
  /**
   * The partition key attribute of the table {@code tableName}, or of its index {@code indexName}
   * (null: the table; the first attribute for an index keyed on several); null for no such index.
   *
   * @throws io.stator.api.DynamoDbException ResourceNotFoundException when there is no such table
   */
  String partitionKey(String tableName, String indexName);
}
