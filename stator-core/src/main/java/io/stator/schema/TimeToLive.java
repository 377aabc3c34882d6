package io.stator.schema;

import java.time.Instant;

/**
 * The Time to Live setting of a table, as the catalog keeps it.
 *
 * @param enabled whether the sweeper deletes expired items of the table
 * @param attributeName the attribute holding each item's expiry (epoch seconds) while enabled;
 *     null when disabled
 * @param lastModified when UpdateTimeToLive last changed the setting, or null if never; DynamoDB
 *     refuses a second change within an hour of the last
 */
public record TimeToLive(boolean enabled, String attributeName, Instant lastModified) {
  public static final TimeToLive DISABLED = new TimeToLive(false, null, null);
}
