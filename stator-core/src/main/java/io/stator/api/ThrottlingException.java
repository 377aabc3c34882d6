package io.stator.api;

import java.util.List;

/**
 * DynamoDB's ThrottlingException with its ThrottlingReasons: what a BatchWriteItem answers when
 * none of its writes could be processed because of throttling other than a table's provisioned
 * throughput running out (such as a partition's limits).
 */
public final class ThrottlingException extends DynamoDbException {
  private final List<ThrottlingReason> throttlingReasons;

  public ThrottlingException(String message, List<ThrottlingReason> throttlingReasons) {
    super(ErrorType.ThrottlingException, message);
    this.throttlingReasons = List.copyOf(throttlingReasons);
  }

  public List<ThrottlingReason> throttlingReasons() {
    return throttlingReasons;
  }
}
