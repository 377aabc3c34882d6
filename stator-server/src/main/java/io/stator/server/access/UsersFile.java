package io.stator.server.access;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The credentials file's JSON form: users, each with its access keys and the identity-based
 * policy that decides what they may do.
 *
 * <pre>
 * {"Users": [{"UserName": "reader",
 *             "AccessKeys": [{"AccessKeyId": "AKID...", "SecretAccessKey": "...",
 *                             "SessionToken": "..."}],
 *             "Policy": {"Version": "2012-10-17", "Statement": [...]}}]}
 * </pre>
 *
 * A user signs as {@code arn:aws:iam::ACCOUNT:user/NAME}; a user without a {@code Policy} may do
 * nothing, as an IAM user with no policy attached.
 */
public final class UsersFile {
  private UsersFile() {}

  /** One access key of a user, with the user as its principal. */
  public record Key(
      String accessKeyId, String secretAccessKey, String sessionToken, Principal principal) {}

  /** The keys of the users in {@code json}; IllegalArgumentException naming what is wrong. */
  public static List<Key> parse(String json, String account) {
    Object document;
    try {
      document = JsonTree.read(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage());
    }
    if (!(document instanceof Map<?, ?> root) || !(root.get("Users") instanceof List<?> users)
        || root.size() != 1) {
      throw new IllegalArgumentException("expected {\"Users\": [...]}");
    }
    List<Key> keys = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Object u : users) {
      if (!(u instanceof Map<?, ?> user)) {
        throw new IllegalArgumentException("each of Users is a JSON object");
      }
      if (!(user.get("UserName") instanceof String name) || name.isEmpty()) {
        throw new IllegalArgumentException("each user needs a UserName");
      }
      String where = "user " + name;
      if (!names.add(name)) {
        throw new IllegalArgumentException(where + " is given twice");
      }
      for (Object member : user.keySet()) {
        if (!Set.of("UserName", "AccessKeys", "Policy").contains(member)) {
          throw new IllegalArgumentException(where + " has no member \"" + member + "\"");
        }
      }
      Policy policy;
      try {
        policy = user.containsKey("Policy") ? Policy.of(user.get("Policy")) : new Policy(List.of());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": " + e.getMessage());
      }
      Principal principal = new Principal("arn:aws:iam::" + account + ":user/" + name, policy);
      if (!(user.get("AccessKeys") instanceof List<?> accessKeys) || accessKeys.isEmpty()) {
        throw new IllegalArgumentException(where + " needs AccessKeys, a list of keys");
      }
      for (Object k : accessKeys) {
        if (!(k instanceof Map<?, ?> key)) {
          throw new IllegalArgumentException(where + ": each access key is a JSON object");
        }
        keys.add(new Key(string(key, "AccessKeyId", where), string(key, "SecretAccessKey", where),
            key.containsKey("SessionToken") ? string(key, "SessionToken", where) : null,
            principal));
      }
    }
    return keys;
  }

  private static String string(Map<?, ?> map, String member, String where) {
    if (!(map.get(member) instanceof String s) || s.isEmpty()) {
      throw new IllegalArgumentException(where + ": an access key needs " + member);
    }
    return s;
  }
}
