package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.ErrorType;
import io.stator.api.Put;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.Update;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TransactWriteItems' 4 MB limit: "the aggregate size of the items in the transaction cannot
 * exceed 4 MB", counting what Puts write and what Updates bring, and refusing the whole request
 * before anything is written.
 */
class TransactionSizeTest {
  private static final String LIMIT =
      "Transaction request size has exceeded the maximum allowed size of 4 MB";
  private static final String BIG = "x".repeat(390 * 1024); // 10 fit in 4 MB, 11 do not

  private final Database db = Stator.inMemory();

  @BeforeEach
  void table() {
    db.createTable(create("Blobs", "id", "S", null, null));
  }

  @Test
  void putsUpToFourMegabytesCommit() {
    db.transactWriteItems(request(0, 10));
    assertThat(count()).isEqualTo(10);
  }

  @Test
  void putsOverFourMegabytesAreRefusedWhole() {
    expect(() -> db.transactWriteItems(request(11, 0)), ErrorType.ValidationException, LIMIT);
    assertThat(count()).isZero();
  }

  @Test
  void updateValuesCountTowardsTheFourMegabytes() {
    // Each Update is a valid 390 KB item on its own; together they write over 4 MB.
    expect(() -> db.transactWriteItems(request(0, 11)), ErrorType.ValidationException, LIMIT);
    expect(() -> db.transactWriteItems(request(5, 6)), ErrorType.ValidationException, LIMIT);
    assertThat(count()).isZero();
    db.transactWriteItems(request(4, 6));
    assertThat(count()).isEqualTo(10);
  }

  /** {@code puts} Puts then {@code updates} Updates, each of one 390 KB attribute. */
  private static TransactWriteItemsRequest request(int puts, int updates) {
    List<TransactWriteItem> actions = new ArrayList<>();
    for (int i = 0; i < puts; i++) {
      actions.add(new TransactWriteItem(null,
          new Put(item("id", "p" + i, "payload", BIG), "Blobs", null, null, null, null),
          null, null));
    }
    for (int i = 0; i < updates; i++) {
      actions.add(new TransactWriteItem(null, null, null, new Update(
          item("id", "u" + i), "SET payload = :p", "Blobs", null, null,
          Map.of(":p", AttributeValue.s(BIG)), null)));
    }
    return new TransactWriteItemsRequest(actions, null, null, null);
  }

  /** The number of items of the requests above that exist (a Scan would stop at 1 MB). */
  private int count() {
    int count = 0;
    for (int i = 0; i < 11; i++) {
      for (String id : List.of("p" + i, "u" + i)) {
        if (db.getItem(Fixtures.get("Blobs", item("id", id))).item() != null) {
          count++;
        }
      }
    }
    return count;
  }
}
