package io.stator.api;

/**
 * Who made a change: present only on Time to Live deletions ({@code Service}, {@code
 * dynamodb.amazonaws.com}).
 */
public record Identity(
    String principalId, String type) {}
