package io.stator.api;

import java.util.List;

/** The endpoints that serve the API (for clients with endpoint discovery). */
public record DescribeEndpointsResponse(
    List<Endpoint> endpoints) {}
