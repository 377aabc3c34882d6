package io.stator.api;

/**
 * The errors DynamoDB returns, by their DynamoDB names. The wire codec writes {@link #wireType()}
 * as {@code __type} and {@link #httpStatus()} as the status, with no string matching.
 *
 * <p>DynamoDB names its own errors in the {@code com.amazonaws.dynamodb.v20120810} namespace, but
 * the errors raised by its service framework before the operation runs keep the framework's
 * namespaces: request validation ({@code com.amazon.coral.validate#ValidationException}),
 * protocol and authentication ({@code com.amazon.coral.service#...}) and request-rate throttling
 * ({@code com.amazon.coral.availability#ThrottlingException}). SDKs read only the part after
 * {@code #}, but tools that compare the whole {@code __type} see the same strings as DynamoDB's.
 */
public enum ErrorType {
  ValidationException(400, Namespace.VALIDATE),
  SerializationException(400, Namespace.SERVICE),
  UnknownOperationException(400, Namespace.SERVICE),
  MissingAuthenticationTokenException(400, Namespace.SERVICE),
  UnrecognizedClientException(400, Namespace.SERVICE),
  InvalidSignatureException(400, Namespace.SERVICE),
  IncompleteSignatureException(400, Namespace.SERVICE),
  AccessDeniedException(400, Namespace.SERVICE),
  ResourceNotFoundException(400),
  ResourceInUseException(400),
  PolicyNotFoundException(400),
  TableNotFoundException(400),
  TableAlreadyExistsException(400),
  TableInUseException(400),
  BackupNotFoundException(400),
  BackupInUseException(400),
  PointInTimeRecoveryUnavailableException(400),
  InvalidRestoreTimeException(400),
  InvalidExportTimeException(400),
  ExportNotFoundException(400),
  ExportConflictException(400),
  ImportNotFoundException(400),
  ImportConflictException(400),
  ConditionalCheckFailedException(400),
  DuplicateItemException(400),
  LimitExceededException(400),
  ItemCollectionSizeLimitExceededException(400),
  ProvisionedThroughputExceededException(400),
  RequestLimitExceeded(400),
  ThrottlingException(400, Namespace.AVAILABILITY),
  TransactionCanceledException(400),
  TransactionConflictException(400),
  TransactionInProgressException(400),
  IdempotentParameterMismatchException(400),
  ExpiredIteratorException(400),
  TrimmedDataAccessException(400),
  RequestEntityTooLarge(413),
  InternalServerError(500),
  /** The server cannot take the request now (Stator: a connection over its limit); retried. */
  ServiceUnavailable(503);

  private final int httpStatus;
  private final String wireType;

  ErrorType(int httpStatus) {
    this(httpStatus, Namespace.DYNAMODB);
  }

  ErrorType(int httpStatus, String namespace) {
    this.httpStatus = httpStatus;
    this.wireType = namespace + "#" + name();
  }

  public int httpStatus() {
    return httpStatus;
  }

  /**
   * The {@code __type} written on the wire, e.g. {@code
   * com.amazonaws.dynamodb.v20120810#ResourceNotFoundException}.
   */
  public String wireType() {
    return wireType;
  }

  private static final class Namespace {
    static final String DYNAMODB = "com.amazonaws.dynamodb.v20120810";
    static final String VALIDATE = "com.amazon.coral.validate";
    static final String SERVICE = "com.amazon.coral.service";
    static final String AVAILABILITY = "com.amazon.coral.availability";
  }
}
