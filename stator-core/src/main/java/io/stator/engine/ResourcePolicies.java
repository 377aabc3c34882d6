package io.stator.engine;

import io.stator.api.DeleteResourcePolicyRequest;
import io.stator.api.DeleteResourcePolicyResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GetResourcePolicyRequest;
import io.stator.api.GetResourcePolicyResponse;
import io.stator.api.PutResourcePolicyRequest;
import io.stator.api.PutResourcePolicyResponse;
import io.stator.schema.Constraints;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;

/**
 * PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy: a resource-based policy per
 * table or stream, with a revision id that changes with every new document.
 *
 * <p>The policies live in a space of their own, keyed by the resource's ARN, each with the id of
 * the table incarnation it was put on: a policy left by a deleted table is not its successor's
 * (it reads as none and is replaced by the next put). The document is kept as sent; the server
 * checks its grammar before it gets here and enforces it ({@code io.stator.server.access}).
 * DynamoDB applies a policy "eventually"; Stator at once.
 *
 * <p>Revision ids are the milliseconds of the put, as DynamoDB's look, made unique per resource.
 * Putting the same document again keeps its revision (the operation is idempotent).
 * {@code ExpectedRevisionId} guards a change ({@code NO_POLICY}: only where there is none); a
 * guard that does not hold, or a policy asked for that is not there, is PolicyNotFoundException.
 */
final class ResourcePolicies {
  static final String SPACE = "resource-policies";
  private static final byte FORMAT_VERSION = 1;
  private static final int MAX_POLICY_BYTES = 20 * 1024;
  private static final String NO_POLICY = "NO_POLICY";

  private final Storage storage;
  private final Tables tables;
  private final Clock clock;

  ResourcePolicies(Storage storage, Tables tables, Clock clock) {
    this.storage = storage;
    this.tables = tables;
    this.clock = clock;
    storage.createSpace(SPACE);
  }

  /** A stored policy: the table incarnation it is of, its revision, and the document. */
  private record Stored(String tableId, String revisionId, String policy, long version) {}

  /** Refuses a policy document above DynamoDB's 20 KB, white space counted. */
  void checkSize(String policy) {
    if (policy.getBytes(StandardCharsets.UTF_8).length > MAX_POLICY_BYTES) {
      throw DynamoDbException.validation("Resource-based policy size exceeds the maximum allowed"
          + " size of 20 KB.");
    }
  }

  PutResourcePolicyResponse put(PutResourcePolicyRequest r) {
    Constraints c = arn(r.resourceArn());
    c.notNull("policy", r.policy());
    revision(c, r.expectedRevisionId());
    c.check();
    checkSize(r.policy());
    while (true) {
      Resource resource = resource(r.resourceArn());
      Optional<Stored> read = read(resource);
      Optional<Stored> current = ofTable(read, resource);
      String expected = r.expectedRevisionId();
      if (current.isPresent() && NO_POLICY.equals(expected)) {
        throw notFound("Requested policy update expecting none to be present for table "
            + resource.table.name() + ", but a policy exists with revision id "
            + current.get().revisionId() + ".");
      }
      if (expected != null && !NO_POLICY.equals(expected)) {
        checkRevision(expected, current, resource);
      }
      if (current.isPresent() && current.get().policy().equals(r.policy())) {
        return new PutResourcePolicyResponse(current.get().revisionId());
      }
      String revision = nextRevision(current);
      try {
        write(resource, read, new Stored(resource.table.tableId(), revision, r.policy(), 0));
        return new PutResourcePolicyResponse(revision);
      } catch (CommitConflictException raced) {
        // another put or delete got in: decide again against what it left
      }
    }
  }

  GetResourcePolicyResponse get(GetResourcePolicyRequest r) {
    arn(r.resourceArn()).check();
    Resource resource = resource(r.resourceArn());
    Stored current = ofTable(read(resource), resource).orElseThrow(() -> notFound(r.resourceArn()));
    return new GetResourcePolicyResponse(current.policy(), current.revisionId());
  }

  DeleteResourcePolicyResponse delete(DeleteResourcePolicyRequest r) {
    Constraints c = arn(r.resourceArn());
    revision(c, r.expectedRevisionId());
    c.check();
    while (true) {
      Resource resource = resource(r.resourceArn());
      Optional<Stored> read = read(resource);
      Optional<Stored> current = ofTable(read, resource);
      String expected = r.expectedRevisionId();
      if (expected != null) {
        checkRevision(expected, current, resource);
      }
      if (current.isEmpty()) {
        return new DeleteResourcePolicyResponse(null); // deleting no policy is no error
      }
      try {
        write(resource, read, null);
        return new DeleteResourcePolicyResponse(current.get().revisionId());
      } catch (CommitConflictException raced) {
        // decide again
      }
    }
  }

  /** PolicyNotFoundException unless the policy there has the revision expected. */
  private static void checkRevision(String expected, Optional<Stored> current, Resource resource) {
    if (current.isEmpty() || !current.get().revisionId().equals(expected)) {
      throw notFound("Requested update for policy with revision id " + expected
          + ", but the policy associated to target table " + resource.table.name()
          + (current.isEmpty() ? " is not present." : " has revision id "
              + current.get().revisionId() + "."));
    }
  }

  /** The resource an ARN names: a table of this region and account, or one of its streams. */
  private record Resource(String arn, TableDefinition table) {}

  private Resource resource(String arn) {
    int stream = arn.indexOf("/stream/");
    String name = tables.nameInArn(stream < 0 ? arn : arn.substring(0, stream));
    if (name == null) {
      throw noResource(arn);
    }
    TableDefinition table;
    try {
      table = tables.definition(name);
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        throw noResource(arn);
      }
      throw e;
    }
    if (stream >= 0) {
      String label = arn.substring(stream + "/stream/".length());
      boolean kept = false;
      for (StreamDefinition s : table.streams()) {
        kept |= s.label().equals(label);
      }
      if (!kept) {
        throw noResource(arn);
      }
    }
    return new Resource(arn, table);
  }

  /** The policy read if it was put on this incarnation of the table. */
  private static Optional<Stored> ofTable(Optional<Stored> read, Resource resource) {
    return read.filter(s -> s.tableId().equals(resource.table().tableId()));
  }

  private static DynamoDbException noResource(String arn) {
    return new DynamoDbException(ErrorType.ResourceNotFoundException,
        "Requested resource not found: ResourceArn: " + arn + " not found");
  }

  private static Constraints arn(String arn) {
    Constraints c = new Constraints();
    c.notNull("resourceArn", arn);
    if (arn != null) {
      c.lengthAtLeast("resourceArn", arn, arn.length(), 1);
      c.lengthAtMost("resourceArn", arn, arn.length(), 1283);
    }
    return c;
  }

  private static void revision(Constraints c, String revision) {
    if (revision != null) {
      c.lengthAtLeast("expectedRevisionId", revision, revision.length(), 1);
      c.lengthAtMost("expectedRevisionId", revision, revision.length(), 255);
    }
  }

  private static DynamoDbException notFound(String detail) {
    return new DynamoDbException(ErrorType.PolicyNotFoundException,
        "Resource-based policy not found for the provided ResourceArn: " + detail);
  }

  private String nextRevision(Optional<Stored> current) {
    long now = clock.millis();
    if (current.isPresent()) {
      try {
        now = Math.max(now, Long.parseLong(current.get().revisionId()) + 1);
      } catch (NumberFormatException e) {
        // keep the clock's
      }
    }
    return Long.toString(now);
  }

  private static StorageKey key(Resource resource) {
    return new StorageKey(resource.arn().getBytes(StandardCharsets.UTF_8), new byte[0]);
  }

  /**
   * The policy of the resource's table incarnation, if any, with the version of the record
   * (one left by an earlier table of the name reads as no policy, and is replaced by a put).
   */
  private Optional<Stored> read(Resource resource) {
    Optional<StoredRecord> record = storage.get(SPACE, key(resource));
    if (record.isEmpty()) {
      return Optional.empty();
    }
    ByteBuffer in = ByteBuffer.wrap(record.get().value());
    if (in.get() != FORMAT_VERSION) {
      throw new IllegalStateException("unknown resource policy format version");
    }
    return Optional.of(new Stored(string(in), string(in), string(in), record.get().version()));
  }

  /** Replaces the record read ({@code read}, or none) with {@code next}, null to delete. */
  private void write(Resource resource, Optional<Stored> read, Stored next) {
    Commit commit = new Commit().expect(SPACE, key(resource),
        read.map(Stored::version).orElse(Commit.Expectation.ABSENT));
    if (next == null) {
      commit.delete(SPACE, key(resource));
    } else {
      commit.put(SPACE, key(resource), encode(next));
    }
    storage.commit(commit);
  }

  private static byte[] encode(Stored s) {
    byte[][] fields = {
        s.tableId().getBytes(StandardCharsets.UTF_8),
        s.revisionId().getBytes(StandardCharsets.UTF_8),
        s.policy().getBytes(StandardCharsets.UTF_8)};
    int size = 1;
    for (byte[] f : fields) {
      size += 4 + f.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size).put(FORMAT_VERSION);
    for (byte[] f : fields) {
      out.putInt(f.length).put(f);
    }
    return out.array();
  }

  private static String string(ByteBuffer in) {
    byte[] bytes = new byte[in.getInt()];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
