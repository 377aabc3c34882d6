package io.stator.server.access;

import io.stator.api.Database;
import io.stator.api.CreateTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.GetResourcePolicyRequest;
import io.stator.api.GetResourcePolicyResponse;
import io.stator.api.PutResourcePolicyRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resource-based policies the database keeps (PutResourcePolicy), for {@link
 * Authorization}: a table's governs the table and its indexes, a stream's the stream. Each
 * document is parsed once per revision.
 */
public final class StoredResourcePolicies implements Authorization.ResourcePolicies {
  /** What an unreadable stored document stands for: nothing is allowed through it. */
  private static final Policy DENY_ALL = new Policy(List.of(new Statement(
      false, List.of("*"), false, List.of("*"), false, List.of(), List.of("*"))));

  private final Database database;
  private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();

  private record Parsed(String revisionId, Policy policy) {}

  public StoredResourcePolicies(Database database) {
    this.database = database;
  }

  @Override
  public Policy governing(String resource) {
    if (!resource.startsWith("arn:")) {
      return null; // "*": an action on no resource has no resource policy
    }
    int index = resource.indexOf("/index/");
    String arn = index < 0 ? resource : resource.substring(0, index);
    GetResourcePolicyResponse stored;
    try {
      stored = database.getResourcePolicy(new GetResourcePolicyRequest(arn));
    } catch (DynamoDbException none) {
      return null; // no policy, or no such table (the request fails on its own)
    }
    Parsed known = parsed.get(arn);
    if (known != null && known.revisionId().equals(stored.revisionId())) {
      return known.policy();
    }
    Policy policy;
    try {
      policy = Policy.parseResourcePolicy(stored.policy());
    } catch (IllegalArgumentException unreadable) {
      policy = DENY_ALL;
    }
    parsed.put(arn, new Parsed(stored.revisionId(), policy));
    return policy;
  }

  /**
   * Refuses a PutResourcePolicy, or a CreateTable with a ResourcePolicy, whose document is not a
   * resource-based policy Stator can enforce, before anything is stored.
   */
  public static void checkDocument(Object request) {
    String policy = request instanceof PutResourcePolicyRequest r ? r.policy()
        : request instanceof CreateTableRequest r ? r.resourcePolicy() : null;
    if (policy != null) {
      try {
        Policy.parseResourcePolicy(policy);
      } catch (IllegalArgumentException e) {
        throw DynamoDbException.validation("Invalid policy document: " + e.getMessage());
      }
    }
  }
}
