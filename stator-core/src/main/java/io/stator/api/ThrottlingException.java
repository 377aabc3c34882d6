package io.stator.api;

import java.util.List;

/**
 * DynamoDB's ThrottlingException with its ThrottlingReasons: what a request above an on-demand
 * table's or index's configured maximum (OnDemandThroughput) gets, and what a BatchWriteItem
 * answers when none of its writes could be processed because of throttling other than a table's
 * provisioned throughput running out (such as a partition's limits).
 */
public final class ThrottlingException extends ThrottledException {
  public ThrottlingException(String message, List<ThrottlingReason> throttlingReasons) {
    super(ErrorType.ThrottlingException, message, throttlingReasons);
  }
}
