package io.stator.ttl;

import io.stator.api.DynamoDbException;
import io.stator.api.TimeToLiveDescription;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.schema.Constraints;
import io.stator.schema.TimeToLive;
import java.time.Duration;
import java.time.Instant;

/**
 * DynamoDB's rules for UpdateTimeToLive and the answer of DescribeTimeToLive.
 *
 * <p>A change is refused when it would change nothing or contradicts the current setting
 * ("TimeToLive is already enabled", "... already disabled", or a different attribute while
 * enabled), and, as DynamoDB documents, when it comes within an hour of the previous change
 * ("Time to live has been modified multiple times within a fixed interval"). The checks against
 * the current setting come first: a repeated enable is reported as such, whenever it comes.
 *
 * <p>Status: DynamoDB passes through ENABLING and DISABLING while it processes a change (up to an
 * hour). Stator applies a change at once (the sweeper reads the setting before every page), so
 * DescribeTimeToLive answers ENABLED or DISABLED right away; clients that wait for ENABLED, as
 * the SDK's and CLI's users do, continue immediately.
 */
public final class TimeToLiveUpdates {
  /** The interval within which DynamoDB refuses a second change. */
  public static final Duration CHANGE_INTERVAL = Duration.ofHours(1);

  private TimeToLiveUpdates() {}

  /** The request-level constraints of UpdateTimeToLive, all reported together. */
  public static void checkRequest(UpdateTimeToLiveRequest r) {
    Constraints c =
        new Constraints().notNull("tableName", r.tableName()).name("tableName", r.tableName());
    TimeToLiveSpecification spec = r.timeToLiveSpecification();
    c.notNull("timeToLiveSpecification", spec);
    if (spec != null) {
      // DynamoDB reports the name before Enabled (recorded against the service).
      String name = spec.attributeName();
      c.notNull("timeToLiveSpecification.attributeName", name);
      if (name != null) {
        c.lengthAtLeast("timeToLiveSpecification.attributeName", name, name.length(), 1);
        c.lengthAtMost("timeToLiveSpecification.attributeName", name, name.length(), 255);
      }
      c.notNull("timeToLiveSpecification.enabled", spec.enabled());
    }
    c.check();
  }

  /** The constraints of DescribeTimeToLive's table name. */
  public static void checkTableName(String tableName) {
    new Constraints().notNull("tableName", tableName).name("tableName", tableName).check();
  }

  /** The setting after {@code spec} is applied at {@code now}, or DynamoDB's refusal. */
  public static TimeToLive apply(TimeToLive current, TimeToLiveSpecification spec, Instant now) {
    boolean enable = spec.enabled();
    String name = spec.attributeName();
    if (current.enabled()) {
      if (!current.attributeName().equals(name)) {
        throw DynamoDbException.validation(
            "TimeToLive is active on a different AttributeName: current AttributeName is "
                + current.attributeName());
      }
      if (enable) {
        throw DynamoDbException.validation("TimeToLive is already enabled");
      }
    } else if (!enable) {
      throw DynamoDbException.validation("TimeToLive is already disabled");
    }
    if (current.lastModified() != null
        && now.isBefore(current.lastModified().plus(CHANGE_INTERVAL))) {
      throw DynamoDbException.validation(
          "Time to live has been modified multiple times within a fixed interval");
    }
    return new TimeToLive(enable, enable ? name : null, now);
  }

  /** DescribeTimeToLive's description of a setting. */
  public static TimeToLiveDescription describe(TimeToLive current) {
    return current.enabled()
        ? new TimeToLiveDescription("ENABLED", current.attributeName())
        : new TimeToLiveDescription("DISABLED", null);
  }
}
