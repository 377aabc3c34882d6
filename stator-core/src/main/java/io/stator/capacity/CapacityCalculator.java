package io.stator.capacity;

/**
 * DynamoDB's capacity arithmetic, as the Developer Guide documents it ("Read/write capacity
 * mode" and "Capacity unit consumption"):
 *
 * <ul>
 *   <li>A read is priced per 4 KB block of item data, rounded up: one read capacity unit (RCU)
 *       per block strongly consistent, half eventually consistent, two transactional. A 3.5 KB
 *       item is one block; a 4.5 KB item two.
 *   <li>A write is priced per 1 KB, rounded up: one write capacity unit (WCU) per KB, two in a
 *       transaction. PutItem and UpdateItem pay for the larger of the item before and after;
 *       DeleteItem for the deleted item. Every write costs at least one unit, also when there was
 *       no item to delete.
 *   <li>A write whose condition fails still consumes: the size of the existing item, at least 1.
 *   <li>GetItem of a missing item costs the minimum, 0.5 or 1 RCU; BatchGetItem prices each item
 *       on its own.
 *   <li>Query and Scan add up the sizes of all the items they read (before any filter, which
 *       only shrinks the response) and round the total once: 80 items of 100 bytes are 8,000
 *       bytes, two blocks, so 2 RCU strongly consistent and 1 eventually. An empty result still
 *       costs the minimum read.
 * </ul>
 *
 * <p>Results are doubles because DynamoDB reports halves; every figure is a multiple of 0.5.
 */
public final class CapacityCalculator {
  /** A read capacity unit covers 4 KB. */
  public static final long READ_BLOCK = 4096;

  /** A write capacity unit covers 1 KB. */
  public static final long WRITE_BLOCK = 1024;

  private CapacityCalculator() {}

  /**
   * The RCUs of reading {@code bytes} of item data as one request (Query, Scan, or one item),
   * rounded once; at least one block.
   */
  public static double read(long bytes, ReadConsistency consistency) {
    return blocks(bytes, READ_BLOCK) * consistency.unitsPerBlock();
  }

  /** The RCUs of reading items one by one (BatchGetItem, TransactGetItems): each rounded. */
  public static double read(long[] itemSizes, ReadConsistency consistency) {
    double units = 0;
    for (long size : itemSizes) {
      units += read(size, consistency);
    }
    return units;
  }

  /**
   * The RCUs of a GetItem: the item's size, or the minimum when there is no item ({@code size}
   * negative or zero).
   */
  public static double getItem(long size, ReadConsistency consistency) {
    return read(Math.max(size, 0), consistency);
  }

  /**
   * The WCUs of a write that replaces an item of {@code oldSize} bytes (0 if none) with one of
   * {@code newSize} bytes (0 for a delete): the larger of the two, per KB, at least 1; doubled
   * in a transaction.
   */
  public static double write(long oldSize, long newSize, boolean transactional) {
    long units = blocks(Math.max(oldSize, newSize), WRITE_BLOCK);
    return transactional ? 2.0 * units : units;
  }

  /**
   * The WCUs of a write whose condition failed: the existing item's size (0 if none), at least
   * 1. (A failed transaction is priced by the transaction code, not here.)
   */
  public static double failedCondition(long existingSize) {
    return blocks(existingSize, WRITE_BLOCK);
  }

  /** ceil(bytes / block), at least 1. */
  static long blocks(long bytes, long block) {
    return bytes <= 0 ? 1 : (bytes + block - 1) / block;
  }
}
