/**
 * Items as stored: the versioned binary item encoding ({@link io.stator.item.ItemCodec}) and
 * DynamoDB's item size rules ({@link io.stator.item.ItemSize}), which capacity and the 400 KB
 * limit are computed from, and its nesting limit ({@link io.stator.item.ItemNesting}).
 */
package io.stator.item;
