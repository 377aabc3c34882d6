package io.stator.server.access;

/**
 * One permission a request needs: an action ({@code dynamodb:GetItem}) on a resource (a table,
 * index or stream ARN, or {@code *} for an action on no resource, such as ListTables).
 */
public record AccessRequest(String action, String resource) {}
