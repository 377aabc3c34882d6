/**
 * Time to Live: DynamoDB's per-table setting (UpdateTimeToLive, DescribeTimeToLive) that names
 * an attribute holding each item's expiry in epoch seconds, and the sweeper that deletes expired
 * items in the background through the engine's ordinary delete path.
 */
package io.stator.ttl;
