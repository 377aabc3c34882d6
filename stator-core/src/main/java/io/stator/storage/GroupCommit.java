package io.stator.storage;

/**
 * Group commit: many requests' commits made durable by one write to the log, instead of one write
 * each.
 *
 * <p>A thread that answers requests defers the durability of its commits, then holds its answers
 * until {@link #awaitDurable} returns; the first thread to call it writes the log for every
 * commit so far, and the others find theirs written. Commits on threads that do not defer are
 * durable when they return, as ever.
 *
 * <p>Both methods do nothing by default, which is right for a storage whose commits are durable
 * as soon as they are visible (or never durable, like the in-memory one).
 */
public interface GroupCommit {

  /**
   * Group commit, for the calling thread from now on: its commits return once every reader sees
   * them, before they are durable, so that one write to the log can make the commits of many
   * requests durable together. In return the thread calls {@link #awaitDurable} before anyone
   * outside the process learns of those commits, or of anything the thread read meanwhile (a
   * read may see another deferring thread's commit before it is durable). A server calls it on
   * the threads that answer requests and holds each answer until {@code awaitDurable} returns.
   *
   * <p>Commits on other threads stay durable when they return.
   */
  default void deferDurabilityOnThisThread() {}

  /**
   * Returns once every commit that returned before this call, on any thread, is as durable as a
   * commit on a thread that does not defer. Returns at once when there is nothing to wait for.
   */
  default void awaitDurable() {}
}
