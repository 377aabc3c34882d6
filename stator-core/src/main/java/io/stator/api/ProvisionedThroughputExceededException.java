package io.stator.api;

import java.util.List;

/** A throttled request: DynamoDB's ProvisionedThroughputExceededException with its reasons. */
public final class ProvisionedThroughputExceededException extends ThrottledException {
  public ProvisionedThroughputExceededException(
      String message, List<ThrottlingReason> throttlingReasons) {
    super(ErrorType.ProvisionedThroughputExceededException, message, throttlingReasons);
  }
}
