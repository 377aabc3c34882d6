package io.stator.backup;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Backup ids and ARNs as DynamoDB makes them: {@code <table ARN>/backup/<id>}, the id the
 * creation time in milliseconds, zero-padded to 14 digits, a hyphen and 8 hex digits ({@code
 * 01489602797149-73d8d5bc}). The padding makes ids sort by creation time as text does.
 */
public final class BackupArns {
  static final String BACKUP_PART = "/backup/";
  private static final SecureRandom RANDOM = new SecureRandom();

  private BackupArns() {}

  /** A new id made at {@code created}; exports and imports take theirs from here too. */
  public static String newId(Instant created) {
    byte[] suffix = new byte[4];
    RANDOM.nextBytes(suffix);
    return String.format("%014d", created.toEpochMilli()) + "-" + HexFormat.of().formatHex(suffix);
  }

  static String arn(String tableArn, String id) {
    return tableArn + BACKUP_PART + id;
  }

  /** The id in a backup ARN, or null when it is no backup ARN. */
  static String idOf(String arn) {
    int at = arn.lastIndexOf(BACKUP_PART);
    if (at < 0 || !arn.startsWith("arn:")) {
      return null;
    }
    String id = arn.substring(at + BACKUP_PART.length());
    return id.isEmpty() || id.indexOf('/') >= 0 ? null : id;
  }
}
