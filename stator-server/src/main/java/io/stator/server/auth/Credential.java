package io.stator.server.auth;

import io.stator.server.access.Principal;

/**
 * One key a client may sign with: its access key id, its secret, the session token that must
 * come with it (null for a long-term key), and the principal it signs as (null for a key that
 * may do everything, as the plain credentials file's keys may).
 */
public record Credential(
    String accessKeyId, String secretAccessKey, String sessionToken, Principal principal) {
  public Credential {
    if (accessKeyId == null || accessKeyId.isBlank()) {
      throw new IllegalArgumentException("an access key id is required");
    }
    if (secretAccessKey == null || secretAccessKey.isEmpty()) {
      throw new IllegalArgumentException("the secret of " + accessKeyId + " is missing");
    }
  }

  /** A key that may do everything. */
  public Credential(String accessKeyId, String secretAccessKey, String sessionToken) {
    this(accessKeyId, secretAccessKey, sessionToken, null);
  }

  @Override
  public String toString() {
    return "Credential[" + accessKeyId + "]"; // never the secret
  }
}
