package io.stator.api;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A transaction was cancelled: one {@link CancellationReason} per action, in request order,
 * and DynamoDB's message listing their codes ({@code Transaction cancelled, please refer
 * cancellation reasons for specific reasons [None, ConditionalCheckFailed]}).
 */
public final class TransactionCanceledException extends DynamoDbException {
  private final List<CancellationReason> cancellationReasons;

  public TransactionCanceledException(List<CancellationReason> cancellationReasons) {
    super(ErrorType.TransactionCanceledException, message(cancellationReasons));
    this.cancellationReasons = List.copyOf(cancellationReasons);
  }

  public List<CancellationReason> cancellationReasons() {
    return cancellationReasons;
  }

  private static String message(List<CancellationReason> reasons) {
    return "Transaction cancelled, please refer cancellation reasons for specific reasons "
        + reasons.stream()
            .map(CancellationReason::code)
            .collect(Collectors.joining(", ", "[", "]"));
  }
}
