package io.stator.storage;

/**
 * What a read asks of the storage. A hint: a storage may always serve the stronger read, and the
 * local ones do.
 */
public enum Consistency {
  /** Sees every commit that returned before the read began (DynamoDB's ConsistentRead). */
  STRONG,
  /**
   * May miss commits of the last moments, so a replicated store may serve it from any one replica
   * (DynamoDB's default read); it still sees each commit wholly or not at all.
   */
  EVENTUAL
}
