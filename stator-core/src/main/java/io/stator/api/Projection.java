package io.stator.api;

import java.util.List;

/** The attributes projected into an index: KEYS_ONLY, INCLUDE (with nonKeyAttributes) or ALL. Null members are absent, as on the wire. */
public record Projection(
    String projectionType,
    List<String> nonKeyAttributes) {}
