/**
 * The AWS JSON 1.0 wire protocol of DynamoDB and DynamoDB Streams: one reader and one writer
 * per shape, on Jackson's streaming parser and generator (no reflection), with DynamoDB's
 * SerializationException and ValidationException for what a body gets wrong.
 */
package io.stator.server.wire;
