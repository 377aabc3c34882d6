package io.stator.api;

import java.time.Instant;

/** A table's class and when it was last changed. Null members are absent, as on the wire. */
public record TableClassSummary(
    String tableClass,
    Instant lastUpdateDateTime) {}
