package io.stator.partiql;

import io.stator.api.DynamoDbException;
import java.util.List;

/**
 * A SELECT's ORDER BY, as DynamoDB allows it: only on the key of the table or index read, and
 * only where the WHERE clause selects partitions by their key, since the order is the order in
 * which the partitions are read (by partition key) and each partition's items (by sort key, as a
 * Query's ScanIndexForward); several partitions need the partition key among the ORDER BY keys.
 */
final class OrderBy {
  private OrderBy() {}

  /** Refuses an ORDER BY the SELECT cannot honour, with DynamoDB's messages. */
  static void check(Statement.Select select, List<String> key, int partitionValues) {
    if (select.orderBy().isEmpty()) {
      return;
    }
    if (select.where() == null) {
      throw DynamoDbException.validation(
          "Must have WHERE clause in the statement when using ORDER BY clause.");
    }
    for (Statement.OrderBy order : select.orderBy()) {
      if (!key.contains(order.attribute())) {
        throw DynamoDbException.validation("Attribute " + order.attribute()
            + " in ORDER BY clause must be part of the primary key");
      }
    }
    if (partitionValues == 0) {
      throw DynamoDbException.validation("Must have at least one non-optional hash key"
          + " condition in WHERE clause when using ORDER BY clause.");
    }
    if (partitionValues > 1 && !orders(select, key.get(0))) {
      throw DynamoDbException.validation("Must have hash key in ORDER BY clause when more than"
          + " one hash key condition specified in WHERE clause.");
    }
  }

  /** Whether {@code attribute} is read in descending order: ascending unless ORDER BY says DESC. */
  static boolean descending(Statement.Select select, String attribute) {
    return select.orderBy().stream()
        .anyMatch(o -> o.attribute().equals(attribute) && o.descending());
  }

  private static boolean orders(Statement.Select select, String attribute) {
    return select.orderBy().stream().anyMatch(o -> o.attribute().equals(attribute));
  }
}
