package io.stator.api;

import java.util.List;

/**
 * A request DynamoDB throttled, with the ThrottlingReasons saying which limit of which table or
 * index refused it: a ProvisionedThroughputExceededException (provisioned throughput, partition
 * limits, an on-demand table scaling) or a ThrottlingException (an on-demand table's configured
 * maximum, or a batch refused for other limits than provisioned throughput). The engine catches
 * this one type wherever a throttle makes an item unprocessed or a transaction cancelled.
 */
public abstract sealed class ThrottledException extends DynamoDbException
    permits ProvisionedThroughputExceededException, ThrottlingException {
  private final List<ThrottlingReason> throttlingReasons;

  ThrottledException(ErrorType type, String message, List<ThrottlingReason> throttlingReasons) {
    super(type, message);
    this.throttlingReasons = List.copyOf(throttlingReasons);
  }

  public List<ThrottlingReason> throttlingReasons() {
    return throttlingReasons;
  }
}
