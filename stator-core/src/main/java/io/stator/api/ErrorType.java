package io.stator.api;

/**
 * The errors DynamoDB returns, by their DynamoDB names. The wire codec writes {@link #wireType()}
 * as {@code __type} and {@link #httpStatus()} as the status, with no string matching.
 */
public enum ErrorType {
  ValidationException(400),
  SerializationException(400),
  UnknownOperationException(400),
  MissingAuthenticationTokenException(400),
  UnrecognizedClientException(400),
  AccessDeniedException(400),
  ResourceNotFoundException(400),
  ResourceInUseException(400),
  TableNotFoundException(400),
  ConditionalCheckFailedException(400),
  LimitExceededException(400),
  ItemCollectionSizeLimitExceededException(400),
  ProvisionedThroughputExceededException(400),
  RequestLimitExceeded(400),
  ThrottlingException(400),
  TransactionCanceledException(400),
  TransactionConflictException(400),
  TransactionInProgressException(400),
  IdempotentParameterMismatchException(400),
  ExpiredIteratorException(400),
  TrimmedDataAccessException(400),
  RequestEntityTooLarge(413),
  InternalServerError(500);

  private static final String PREFIX = "com.amazonaws.dynamodb.v20120810#";

  private final int httpStatus;
  private final String wireType;

  ErrorType(int httpStatus) {
    this.httpStatus = httpStatus;
    this.wireType = PREFIX + name();
  }

  public int httpStatus() {
    return httpStatus;
  }

  /** The {@code __type} written on the wire, e.g. {@code com.amazonaws.dynamodb.v20120810#ValidationException}. */
  public String wireType() {
    return wireType;
  }
}
