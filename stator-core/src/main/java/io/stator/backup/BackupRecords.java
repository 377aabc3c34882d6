package io.stator.backup;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The space {@code backups}: one partition of backup records by id (so in creation order, which
 * ListBackups pages through), and beside it one partition of markers, each a claim on a table
 * or a backup that another backup operation must respect: {@code creating/<tableId>} while a
 * backup of the table is being made (DynamoDB makes one backup of a table at a time), and
 * {@code restoring/<backupId>/<target>} while a restore reads the backup (which DeleteBackup
 * must not drop under it; it counts the restore's failures, {@link #restoreFailed}). Each
 * change is one commit with expectations, so two operations
 * racing for one claim find out by a conflict, whichever process they run in.
 */
final class BackupRecords {
  static final String SPACE = "backups";
  private static final byte[] BACKUPS = bytes("backup");
  private static final byte[] CLAIMS = bytes("claim");
  private static final byte CLAIM_FORMAT = 1;

  /** A record with the version it was read at. */
  record Read(StoredBackup backup, long version) {}

  private final Storage storage;

  BackupRecords(Storage storage) {
    this.storage = storage;
    storage.createSpace(SPACE);
  }

  Optional<Read> get(String id) {
    return storage.get(SPACE, key(id)).map(BackupRecords::read);
  }

  /** Up to {@code limit} records after {@code afterId} (from the first when null), by id. */
  List<Read> after(String afterId, int limit) {
    Bound lower = afterId == null ? null : Bound.exclusive(bytes(afterId));
    List<Read> out = new ArrayList<>();
    for (StoredRecord r : storage.query(SPACE, BACKUPS, lower, null, true, limit)) {
      out.add(read(r));
    }
    return out;
  }

  /**
   * Records a backup being made, and its claim on its table; BackupInUseException when another
   * backup of the table is being made.
   */
  void creating(StoredBackup backup) {
    StorageKey claim = creatingClaim(backup.table().tableId());
    Commit commit = new Commit()
        .expect(SPACE, claim, Commit.Expectation.ABSENT)
        .put(SPACE, claim, new byte[0])
        .expect(SPACE, key(backup.id()), Commit.Expectation.ABSENT)
        .put(SPACE, key(backup.id()), backup.encode());
    try {
      storage.commit(commit);
    } catch (CommitConflictException e) {
      throw new DynamoDbException(ErrorType.BackupInUseException,
          "Backup is already being created for table " + backup.table().name()
              + ": wait until it is AVAILABLE, then try again.");
    }
  }

  /**
   * The backup made: its CREATING record replaced, its table's claim released; false, and
   * nothing written, when the record is gone: another server forgot the backup while this one
   * copied it (this server paused past its lease), and the claim may be a newer backup's now.
   * Only the server making a backup changes its CREATING record, and others only delete it, so a
   * conflict means it was forgotten too.
   */
  boolean made(StoredBackup made) {
    Optional<Read> creating = get(made.id());
    if (creating.isEmpty()) {
      return false;
    }
    Commit commit = new Commit()
        .expect(SPACE, key(made.id()), creating.get().version())
        .put(SPACE, key(made.id()), made.encode());
    if (made.listed()) { // a point-in-time copy took no claim
      commit.delete(SPACE, creatingClaim(made.table().tableId()));
    }
    return applied(commit);
  }

  /**
   * Forgets a backup whose making failed or was cut short (a restart), claim and all; a
   * point-in-time copy, which takes no claim on its table, also once its restore is done. False,
   * and nothing deleted, when the record is gone (forgotten by another server), so the claim of
   * a newer backup of the table is never taken with it.
   */
  boolean abandon(StoredBackup backup) {
    return get(backup.id()).map(this::abandon).orElse(false);
  }

  /**
   * As {@link #abandon(StoredBackup)}, the record deleted at the version read: false, and
   * nothing deleted, when it changed meanwhile (a holder that resumed made it AVAILABLE) or is
   * gone.
   */
  boolean abandon(Read read) {
    StoredBackup backup = read.backup();
    Commit commit = new Commit().expect(SPACE, key(backup.id()), read.version())
        .delete(SPACE, key(backup.id()));
    if (backup.listed()) {
      commit.delete(SPACE, creatingClaim(backup.table().tableId()));
    }
    return applied(commit);
  }

  /** Commits {@code commit}: false, and nothing written, when an expectation does not hold. */
  private boolean applied(Commit commit) {
    try {
      storage.commit(commit);
      return true;
    } catch (CommitConflictException e) {
      return false;
    }
  }

  /**
   * Records a point-in-time copy being made. It takes no claim on its table: a CreateBackup of
   * the table meanwhile is no conflict, and nothing else makes this copy.
   */
  void creatingCopy(StoredBackup copy) {
    storage.commit(new Commit()
        .expect(SPACE, key(copy.id()), Commit.Expectation.ABSENT)
        .put(SPACE, key(copy.id()), copy.encode()));
  }

  /** Deletes the record read, failing with a conflict if it changed meanwhile. */
  void delete(Read read) {
    storage.commit(new Commit()
        .expect(SPACE, key(read.backup().id()), read.version())
        .delete(SPACE, key(read.backup().id())));
  }

  /**
   * Claims the backup read for a restore into {@code target}: the record is written again (same
   * bytes, a new version), so that a DeleteBackup that read it before fails its commit and reads
   * the claim.
   */
  void claimForRestore(Read read, String target) {
    StoredBackup b = read.backup();
    storage.commit(new Commit()
        .expect(SPACE, key(b.id()), read.version())
        .put(SPACE, key(b.id()), b.encode())
        .put(SPACE, restoringClaim(b.id(), target), new byte[0]));
  }

  void releaseRestore(String id, String target) {
    storage.commit(new Commit().delete(SPACE, restoringClaim(id, target)));
  }

  /** Whether a restore reads the backup now. */
  boolean restoring(String id) {
    byte[] prefix = bytes("restoring/" + id + "/");
    return !storage.query(SPACE, CLAIMS, Bound.inclusive(prefix), Bound.pastPrefix(prefix), true,
        1).isEmpty();
  }

  /**
   * A restore's claim: the backup it reads and the table it writes, and how many times the
   * restore failed so far, with the last failure's reason (null before any).
   */
  record Claim(String backupId, String target, int failures, String reason) {}

  /** Every restore claim (at start, those a stop cut short). */
  List<Claim> restoreClaims() {
    byte[] prefix = bytes("restoring/");
    List<Claim> out = new ArrayList<>();
    for (StoredRecord r : storage.query(SPACE, CLAIMS, Bound.inclusive(prefix),
        Bound.pastPrefix(prefix), true, Integer.MAX_VALUE)) {
      String claim = new String(r.key().sort(), StandardCharsets.UTF_8)
          .substring(prefix.length);
      int slash = claim.indexOf('/');
      out.add(claim(claim.substring(0, slash), claim.substring(slash + 1), r.value()));
    }
    return out;
  }

  /**
   * Counts a failure of the restore of a claim, with its reason, in the claim, at the version
   * read: the failures counted so far, or 0, and nothing written, when the claim is gone or
   * changed meanwhile (the restore let go, or another server's failure counted first).
   */
  int restoreFailed(String id, String target, String reason) {
    StorageKey key = restoringClaim(id, target);
    Optional<StoredRecord> now = storage.get(SPACE, key);
    if (now.isEmpty()) {
      return 0;
    }
    int failures = claim(id, target, now.get().value()).failures() + 1;
    byte[] why = bytes(reason);
    byte[] value = ByteBuffer.allocate(1 + 4 + why.length)
        .put(CLAIM_FORMAT).putInt(failures).put(why).array();
    boolean counted = applied(new Commit().expect(SPACE, key, now.get().version())
        .put(SPACE, key, value));
    return counted ? failures : 0;
  }

  /**
   * A restore claim as stored: empty (as claims were before failures were counted, and as a
   * restore claims its backup), or a format byte ({@value #CLAIM_FORMAT}), the failures so far
   * and the last one's reason in UTF-8.
   */
  private static Claim claim(String id, String target, byte[] value) {
    if (value.length == 0) {
      return new Claim(id, target, 0, null);
    }
    ByteBuffer v = ByteBuffer.wrap(value);
    if (v.get() != CLAIM_FORMAT) {
      throw new StorageException("a restore claim of an unknown format; this release reads"
          + " version " + CLAIM_FORMAT);
    }
    int failures = v.getInt();
    return new Claim(id, target, failures,
        new String(value, v.position(), v.remaining(), StandardCharsets.UTF_8));
  }

  private static StorageKey key(String id) {
    return new StorageKey(BACKUPS, bytes(id));
  }

  private static StorageKey creatingClaim(String tableId) {
    return new StorageKey(CLAIMS, bytes("creating/" + tableId));
  }

  private static StorageKey restoringClaim(String id, String target) {
    return new StorageKey(CLAIMS, bytes("restoring/" + id + "/" + target));
  }

  private static Read read(StoredRecord r) {
    return new Read(StoredBackup.decode(r.value()), r.version());
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
