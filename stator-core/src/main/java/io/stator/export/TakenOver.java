package io.stator.export;

/**
 * Thrown inside a running export or import that finds its lease lost ({@code
 * JobLeases#holds}): another server settled the job while this one was paused past its lease.
 * It unwinds the job from wherever it writes (a line of a file, an item of a table) to its run
 * method, which then leaves the record as the other server settled it.
 */
final class TakenOver extends RuntimeException {
  TakenOver(String job) {
    super(job + " was taken over by another server", null, false, false);
  }
}
