package io.stator.api;

import java.time.Instant;

/** PROVISIONED or PAY_PER_REQUEST, and when it last became PAY_PER_REQUEST. Null members are absent, as on the wire. */
public record BillingModeSummary(
    String billingMode,
    Instant lastUpdateToPayPerRequestDateTime) {}
