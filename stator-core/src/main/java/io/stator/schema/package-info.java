/**
 * Tables as DynamoDB defines them: table and index definitions, the validation of CreateTable,
 * UpdateTable and their settings, stream specifications, Time to Live, and the {@link
 * io.stator.schema.Catalog} that keeps every definition in the storage.
 */
package io.stator.schema;
