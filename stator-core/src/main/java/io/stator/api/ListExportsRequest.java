package io.stator.api;

/** ListExports: the exports of one table, or of all, a page at a time. Null members are absent. */
public record ListExportsRequest(String tableArn, Integer maxResults, String nextToken) {}
