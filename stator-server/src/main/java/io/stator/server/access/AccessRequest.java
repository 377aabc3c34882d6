package io.stator.server.access;

/**
 * One permission a request needs: an action ({@code dynamodb:GetItem}) on a resource (a table,
 * index or stream ARN, or {@code *} for an action on no resource, such as ListTables), with the
 * values of the condition keys that a policy's conditions compare.
 */
public record AccessRequest(String action, String resource, RequestContext context) {
  public AccessRequest(String action, String resource) {
    this(action, resource, RequestContext.NONE);
  }
}
