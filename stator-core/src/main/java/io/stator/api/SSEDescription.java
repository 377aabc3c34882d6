package io.stator.api;

import java.time.Instant;

/** Server-side encryption as DescribeTable reports it. Null members are absent. */
public record SSEDescription(
    String status,
    String sseType,
    String kmsMasterKeyArn,
    Instant inaccessibleEncryptionDateTime) {}
