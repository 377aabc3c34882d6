package io.stator.storage;

import java.util.ArrayList;
import java.util.List;

/** A set of writes and the versions they expect. Built by the engine, applied by a Storage. */
public final class Commit {
  private final List<Write> writes = new ArrayList<>();
  private final List<Expectation> expectations = new ArrayList<>();

  /**
   * Writes {@code value} under {@code key}. The storage may keep the arrays of both as they are
   * rather than copies (a write's encoded item is most of what it allocates), so the caller must
   * not change them afterwards. What a storage returns is likewise not to be changed.
   */
  public Commit put(String space, StorageKey key, byte[] value) {
    writes.add(new Write(space, key, value));
    return this;
  }

  /**
   * Puts {@code value} in place of {@code was} (the very array a put of this commit to {@code
   * space} wrote): a value completed once the commit is otherwise staged, as an item stored with
   * its stream record's sequence number.
   */
  public Commit replace(String space, byte[] was, byte[] value) {
    for (int i = 0; i < writes.size(); i++) {
      Write w = writes.get(i);
      if (w.value() == was && w.space().equals(space)) {
        writes.set(i, new Write(space, w.key(), value));
        return this;
      }
    }
    throw new IllegalArgumentException("no put of that value to " + space);
  }

  public Commit delete(String space, StorageKey key) {
    writes.add(new Write(space, key, null));
    return this;
  }

  /** Requires {@code key} to have {@code version} (or to be absent, with {@link Expectation#ABSENT}). */
  public Commit expect(String space, StorageKey key, long version) {
    expectations.add(new Expectation(space, key, version));
    return this;
  }

  public List<Write> writes() {
    return writes;
  }

  public List<Expectation> expectations() {
    return expectations;
  }

  /** A put ({@code value} non-null) or a delete. */
  public record Write(String space, StorageKey key, byte[] value) {
    public boolean isDelete() {
      return value == null;
    }
  }

  /** The version a key must have for the commit to apply. */
  public record Expectation(String space, StorageKey key, long version) {
    public static final long ABSENT = 0L;
  }
}
