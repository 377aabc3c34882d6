package io.stator.api;

/** One of create, update or delete of a global secondary index. Null members are absent, as on the wire. */
public record GlobalSecondaryIndexUpdate(
    CreateGlobalSecondaryIndexAction create,
    UpdateGlobalSecondaryIndexAction update,
    DeleteGlobalSecondaryIndexAction delete) {}
