package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.DeleteTableRequest;
import io.stator.api.ErrorType;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.UpdateTableRequest;
import io.stator.storage.memory.MemoryStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The cache of table definitions follows every change made through the engine. */
class TableCacheTest {

  @Test
  void deleteAndRecreateWithAnotherKeySchemaIsSeenByItemOperations() {
    Database db = Stator.open(new MemoryStorage());
    db.createTable(create("Tab1", "pk", "S", null, null));
    put(db, "Tab1", item("pk", "a", "x", "1")); // loads the definition into the cache
    db.deleteTable(new DeleteTableRequest("Tab1"));
    expect(() -> put(db, "Tab1", item("pk", "a")), ErrorType.ResourceNotFoundException,
        "Requested resource not found");

    db.createTable(create("Tab1", "id", "N", "sk", "S"));
    // the old key schema is gone: the old item shape is refused, the new one accepted
    expect(() -> put(db, "Tab1", item("pk", "a")), ErrorType.ValidationException,
        "One or more parameter values were invalid: Missing the key id in the item");
    put(db, "Tab1", item("id", 1, "sk", "s"));
    assertThat(db.getItem(Fixtures.get("Tab1", item("id", 1, "sk", "s"))).item())
        .isEqualTo(item("id", 1, "sk", "s"));
    // the items of the first incarnation did not come back
    assertThat(db.scan(Fixtures.scan("Tab1", null, null, null, null)).count()).isEqualTo(1);
  }

  @Test
  void aMissingTableIsNotCachedAsMissing() {
    Database db = Stator.open(new MemoryStorage());
    expect(() -> put(db, "Later", item("pk", "a")), ErrorType.ResourceNotFoundException,
        "Requested resource not found");
    db.createTable(create("Later", "pk", "S", null, null));
    put(db, "Later", item("pk", "a"));
    assertThat(db.getItem(Fixtures.get("Later", item("pk", "a"))).item()).isNotNull();
  }

  @Test
  void updateTableIsSeenAndDefinitionsSurviveARestartFromTheStorage() {
    MemoryStorage storage = new MemoryStorage();
    Database db = Stator.open(storage);
    db.createTable(Fixtures.provisioned("Prov", 5, 5));
    put(db, "Prov", item("pk", "a"));
    db.updateTable(
        new UpdateTableRequest(
            "Prov", null, null, new ProvisionedThroughput(7L, 9L), null, null, null, null));
    // a second engine on the same storage starts from the catalog in the storage
    Database second = Stator.open(storage);
    assertThat(second.getItem(Fixtures.get("Prov", item("pk", "a"))).item())
        .isEqualTo(item("pk", "a"));
    assertThat(
            second.describeTable(new io.stator.api.DescribeTableRequest("Prov")).table()
                .provisionedThroughput().readCapacityUnits())
        .isEqualTo(7L);
  }

  /**
   * Item operations racing delete-and-recreate of their table never use a stale definition
   * after the race is over, and never fail with anything but DynamoDB's errors.
   */
  @Test
  void concurrentItemOperationsAndTableChurn() throws Exception {
    Database db = Stator.open(new MemoryStorage());
    db.createTable(create("Churn", "pk", "S", null, null));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 300; i++) {
                    try {
                      put(db, "Churn", item("pk", "k" + thread + "-" + i));
                    } catch (io.stator.api.DynamoDbException e) {
                      // the table is gone, or has the other key schema: never an internal error
                      assertThat(e.type()).isIn(
                          ErrorType.ResourceNotFoundException, ErrorType.ValidationException);
                    }
                  }
                }));
      }
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 30; i++) {
                  db.deleteTable(new DeleteTableRequest("Churn"));
                  db.createTable(
                      i % 2 == 0
                          ? create("Churn", "id", "N", null, null)
                          : create("Churn", "pk", "S", null, null));
                }
              }));
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    // the last incarnation (i = 29) has an S key "pk": the cache must say so
    expect(() -> put(db, "Churn", item("id", 1)), ErrorType.ValidationException,
        "One or more parameter values were invalid: Missing the key pk in the item");
    put(db, "Churn", item("pk", "a"));
  }
}
