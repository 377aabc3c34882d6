package io.stator.api;

import java.util.List;

/** A throttled request: DynamoDB's ProvisionedThroughputExceededException with its reasons. */
public final class ProvisionedThroughputExceededException extends DynamoDbException {
  private final List<ThrottlingReason> throttlingReasons;

  public ProvisionedThroughputExceededException(
      String message, List<ThrottlingReason> throttlingReasons) {
    super(ErrorType.ProvisionedThroughputExceededException, message);
    this.throttlingReasons = List.copyOf(throttlingReasons);
  }

  public List<ThrottlingReason> throttlingReasons() {
    return throttlingReasons;
  }
}
