package io.stator.server.auth;

/**
 * One key a client may sign with: its access key id, its secret, and the session token that
 * must come with it (null for a long-term key).
 */
public record Credential(String accessKeyId, String secretAccessKey, String sessionToken) {
  public Credential {
    if (accessKeyId == null || accessKeyId.isBlank()) {
      throw new IllegalArgumentException("an access key id is required");
    }
    if (secretAccessKey == null || secretAccessKey.isEmpty()) {
      throw new IllegalArgumentException("the secret of " + accessKeyId + " is missing");
    }
  }

  @Override
  public String toString() {
    return "Credential[" + accessKeyId + "]"; // never the secret
  }
}
