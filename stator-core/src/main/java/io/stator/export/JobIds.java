package io.stator.export;

import io.stator.api.DynamoDbException;
import io.stator.backup.BackupArns;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * Export and import ids as DynamoDB makes them, made as backup ids are ({@link BackupArns}:
 * {@code 01693563123456-a1b2c3d4}, the creation time in milliseconds, zero-padded, then 8 hex
 * digits), so that they sort by creation time as text does; and their ARNs: the table's ARN,
 * then {@code /export/} or {@code /import/} and the id.
 */
final class JobIds {
  static final String EXPORT = "/export/";
  static final String IMPORT = "/import/";
  private static final Pattern ID = Pattern.compile("[0-9]{14}-[0-9a-f]{8}");

  private JobIds() {}

  static String newId(Instant created) {
    return BackupArns.newId(created);
  }

  /** The id in an ARN of the kind {@code part} names, or null when it is none. */
  static String idOf(String arn, String part) {
    int at = arn.lastIndexOf(part);
    if (at < 0 || !arn.startsWith("arn:")) {
      return null;
    }
    String id = arn.substring(at + part.length());
    return ID.matcher(id).matches() ? id : null;
  }

  /** The id a NextToken of a List operation resumes after; null for none. */
  static String checkToken(String token) {
    if (token == null) {
      return null;
    }
    if (!ID.matcher(token).matches()) {
      throw DynamoDbException.validation("Invalid NextToken: pass the NextToken of the previous"
          + " page.");
    }
    return token;
  }
}
