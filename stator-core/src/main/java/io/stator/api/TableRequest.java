package io.stator.api;

/**
 * A request for an operation that acts on one table and names it in its TableName member
 * (GetItem, PutItem, CreateTable, DescribeTimeToLive, ...), for code that needs the table of a
 * request whatever its operation, such as the access check.
 */
public interface TableRequest {
  String tableName();
}
