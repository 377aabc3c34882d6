package io.stator.api;

/** ListImports: the imports into one table, or all, a page at a time. Null members are absent. */
public record ListImportsRequest(String tableArn, Integer pageSize, String nextToken) {}
