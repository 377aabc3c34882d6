/**
 * DynamoDB's PartiQL subset: ExecuteStatement's statements ({@code SELECT}, {@code INSERT},
 * {@code UPDATE}, {@code DELETE}) read by a small hand-written parser ({@link
 * io.stator.partiql.Lexer}, {@link io.stator.partiql.Parser}) into syntax trees ({@link
 * io.stator.partiql.Statement}, {@link io.stator.partiql.Term}), then translated into the
 * requests of the operations DynamoDB runs them as (PutItem, GetItem, UpdateItem, DeleteItem,
 * Query, Scan) with expression strings and ExpressionAttributeNames/Values. {@link
 * io.stator.partiql.Statements} runs ExecuteStatement, {@code Selects} plans a
 * SELECT, {@link io.stator.partiql.BatchStatements} runs BatchExecuteStatement and {@link
 * io.stator.partiql.TransactionStatements} ExecuteTransaction.
 *
 * <p>It lives in the core, beside the expression package, so that an embedded {@link
 * io.stator.api.Database} runs statements as the server does ({@code Database.executeStatement}).
 * It calls the database only through its public operations: a statement's write is the
 * equivalent PutItem/UpdateItem/DeleteItem, so conditions, indexes, streams and capacity behave
 * exactly as for those, and the conditions are evaluated by the one expression evaluator.
 */
package io.stator.partiql;
