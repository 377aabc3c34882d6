package io.stator.api;

/** One event of a stream, with DynamoDB's member names ({@code dynamodb} is the record body). */
public record Record(
    String eventID, String eventName, String eventVersion, String eventSource,
    String awsRegion, StreamRecord dynamodb, Identity userIdentity) {}
