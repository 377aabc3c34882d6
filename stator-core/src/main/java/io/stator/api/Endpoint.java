package io.stator.api;

/** An endpoint's address (a host name, or host and port) and how long a client may cache it. */
public record Endpoint(
    String address,
    long cachePeriodInMinutes) {}
