package io.stator.server.wire;

/**
 * A check of a request once it is read and valid, before it runs: access control refuses a
 * request there by throwing DynamoDB's error.
 */
@FunctionalInterface
public interface RequestCheck {
  RequestCheck NONE = (operation, request) -> {};

  /**
   * @param operation the operation as {@link WireProtocol#operation} names it
   * @param request its request, as the {@code io.stator.api} type of the operation
   */
  void check(String operation, Object request);
}
