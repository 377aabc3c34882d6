/**
 * The embedded API: {@link io.stator.api.Database}, one method per DynamoDB operation, and its
 * request and response records, named and shaped as in DynamoDB's API reference. A {@code null}
 * member means the member is absent, as in a request that leaves it out. Client mistakes are
 * {@link io.stator.api.DynamoDbException}s carrying DynamoDB's error type and message.
 */
package io.stator.api;
