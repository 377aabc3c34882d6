package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Scan: paging with Limit and LastEvaluatedKey, parallel scan segments (disjoint, together
 * complete), the order within a partition, Select COUNT and the errors of Segment/TotalSegments.
 *
 * <p>Where the peer implementation used to check these expectations differs: it has no upper
 * bound on TotalSegments, while DynamoDB's API model constrains it to at most 1000000, so a
 * larger value fails the model's constraint check here.
 */
class ScanTest extends EndToEndTest {
  private static final int ITEMS = 1000;

  /** The 1000-item table, filled once per endpoint: writing it is the slow part. */
  private static String thousand;
  private static DynamoDbEndpoint thousandEndpoint;

  private String thousandItems() {
    if (thousandEndpoint != endpoint) {
      String table = createTable("thousand", "id", ScalarAttributeType.S);
      for (int i = 0; i < ITEMS; i++) {
        String id = "item-" + i;
        dynamo.putItem(r -> r.tableName(table).item(item("id", s(id), "n", n("1"))));
      }
      thousand = table;
      thousandEndpoint = endpoint;
    }
    return thousand;
  }

  @Test
  void scanPagesReturnEveryItemOnce() {
    String table = thousandItems();
    List<String> seen = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    int pages = 0;
    do {
      Map<String, AttributeValue> exclusiveStart = start;
      ScanResponse page = dynamo.scan(r -> r.tableName(table).limit(150)
          .exclusiveStartKey(exclusiveStart));
      assertThat(page.count()).isLessThanOrEqualTo(150).isEqualTo(page.items().size());
      assertThat(page.scannedCount()).isEqualTo(page.count());
      page.items().forEach(i -> seen.add(i.get("id").s()));
      start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
      if (start != null) {
        assertThat(page.count()).isEqualTo(150);
        assertThat(start).isEqualTo(
            item("id", page.items().get(page.items().size() - 1).get("id")));
      }
      assertThat(++pages).isLessThanOrEqualTo(ITEMS / 150 + 2);
    } while (start != null);
    assertThat(seen).doesNotHaveDuplicates().hasSize(ITEMS);
    assertThat(new HashSet<>(seen)).isEqualTo(allIds());
  }

  @Test
  void parallelScanSegmentsAreDisjointAndComplete() {
    String table = thousandItems();
    for (int totalSegments : new int[] {1, 3, 7}) {
      Set<String> union = new HashSet<>();
      for (int segment = 0; segment < totalSegments; segment++) {
        List<String> ids = scanSegment(table, segment, totalSegments);
        assertThat(ids).as("segment %d of %d", segment, totalSegments).doesNotHaveDuplicates();
        for (String id : ids) {
          assertThat(union.add(id))
              .as("%s in two segments of %d", id, totalSegments).isTrue();
        }
        if (totalSegments > 1) {
          // With hashed partition keys, no segment holds everything.
          assertThat(ids).as("segment %d of %d", segment, totalSegments).hasSizeLessThan(ITEMS);
        }
      }
      assertThat(union).as("union of %d segments", totalSegments).isEqualTo(allIds());
    }
  }

  @Test
  void aSegmentRefusesAnExclusiveStartKeyOfAnotherSegment() {
    String table = thousandItems();
    ScanResponse first = dynamo.scan(r -> r.tableName(table).segment(1).totalSegments(4)
        .limit(5));
    Map<String, AttributeValue> start = first.lastEvaluatedKey();
    // Its own segment goes on from it; any other segment refuses it.
    assertThat(dynamo.scan(r -> r.tableName(table).segment(1).totalSegments(4)
        .exclusiveStartKey(start)).items()).doesNotContain(first.items().get(0));
    for (int other : new int[] {0, 2, 3}) {
      assertValidation("The provided starting key is invalid: Invalid ExclusiveStartKey. Please"
              + " use ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: " + other,
          () -> dynamo.scan(r -> r.tableName(table).segment(other).totalSegments(4)
              .exclusiveStartKey(start)));
    }
  }

  /**
   * A malformed ExclusiveStartKey (the key attribute missing, one attribute more than the key,
   * the key attribute of the wrong type) is refused in DynamoDB's words; the well-formed key of
   * an item pages on from it.
   */
  @Test
  void aMalformedExclusiveStartKeyIsRefused() {
    String table = createTable("bad-start", "id", ScalarAttributeType.S);
    dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"))));
    dynamo.putItem(r -> r.tableName(table).item(item("id", s("b"))));
    String invalid = "The provided starting key is invalid: The provided key element does not"
        + " match the schema";
    for (Map<String, AttributeValue> start : List.of(
        item("other", s("a")),
        item("id", s("a"), "other", s("x")),
        item("id", n("1")))) {
      assertValidation(invalid,
          () -> dynamo.scan(r -> r.tableName(table).exclusiveStartKey(start)));
    }
    ScanResponse all = dynamo.scan(r -> r.tableName(table));
    Map<String, AttributeValue> first = all.items().get(0);
    assertThat(dynamo.scan(r -> r.tableName(table).exclusiveStartKey(first)).items())
        .containsExactly(all.items().get(1));
  }

  @Test
  void scanCountAndSelectCount() {
    String table = thousandItems();
    ScanResponse count = dynamo.scan(r -> r.tableName(table).select(Select.COUNT));
    assertThat(count.hasItems()).isFalse();
    // 1000 small items fit in one 1 MB page.
    assertThat(count.count()).isEqualTo(ITEMS);
    assertThat(count.scannedCount()).isEqualTo(ITEMS);
    assertThat(count.hasLastEvaluatedKey()).isFalse();
  }

  @Test
  void scanKeepsEachPartitionInSortKeyOrder() {
    String table = createTable("scan-order", "pk", ScalarAttributeType.S,
        "sk", ScalarAttributeType.N);
    for (int p = 0; p < 10; p++) {
      for (int sk : new int[] {30, 4, 200, 1, 15}) {
        String pk = "p" + p;
        dynamo.putItem(r -> r.tableName(table).item(item("pk", s(pk), "sk", n(
            Integer.toString(sk)))));
      }
    }
    ScanResponse all = dynamo.scan(r -> r.tableName(table));
    assertThat(all.count()).isEqualTo(50);
    Map<String, List<Integer>> byPartition = new LinkedHashMap<>();
    String previous = null;
    for (Map<String, AttributeValue> item : all.items()) {
      String pk = item.get("pk").s();
      if (!pk.equals(previous)) {
        assertThat(byPartition).as("partition %s is contiguous", pk).doesNotContainKey(pk);
      }
      byPartition.computeIfAbsent(pk, k -> new ArrayList<>())
          .add(Integer.parseInt(item.get("sk").n()));
      previous = pk;
    }
    assertThat(byPartition).hasSize(10);
    assertThat(byPartition.values()).allSatisfy(
        sks -> assertThat(sks).containsExactly(1, 4, 15, 30, 200));
  }

  @Test
  void emptyTableScansToNothing() {
    String table = createTable("scan-empty", "id", ScalarAttributeType.S);
    ScanResponse response = dynamo.scan(r -> r.tableName(table));
    assertThat(response.items()).isEmpty();
    assertThat(response.count()).isZero();
    assertThat(response.scannedCount()).isZero();
    assertThat(response.hasLastEvaluatedKey()).isFalse();
  }

  @Test
  void segmentErrors() {
    String table = createTable("scan-errors", "id", ScalarAttributeType.S);
    assertValidation("The Segment parameter is zero-based and must be less than parameter "
        + "TotalSegments: Segment: 3 is not less than TotalSegments: 3",
        () -> dynamo.scan(r -> r.tableName(table).segment(3).totalSegments(3)));
    assertValidation("The TotalSegments parameter is required but was not present in the request "
        + "when Segment parameter is present",
        () -> dynamo.scan(r -> r.tableName(table).segment(1)));
    assertValidation("The Segment parameter is required but was not present in the request when "
        + "parameter TotalSegments is present",
        () -> dynamo.scan(r -> r.tableName(table).totalSegments(2)));
    assertValidation("1 validation error detected: Value '0' at 'totalSegments' failed to "
        + "satisfy constraint: Member must have value greater than or equal to 1",
        () -> dynamo.scan(r -> r.tableName(table).segment(0).totalSegments(0)));
    assertValidation("1 validation error detected: Value '1000001' at 'totalSegments' failed to "
        + "satisfy constraint: Member must have value less than or equal to 1000000",
        () -> dynamo.scan(r -> r.tableName(table).segment(0).totalSegments(1000001)));
    assertValidation("1 validation error detected: Value '0' at 'limit' failed to satisfy "
        + "constraint: Member must have value greater than or equal to 1",
        () -> dynamo.scan(r -> r.tableName(table).limit(0)));
  }

  @Test
  void scanOfAMissingTableIsResourceNotFound() {
    String table = uniqueTableName("no-such-table");
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found", () -> dynamo.scan(r -> r.tableName(table)));
  }

  private List<String> scanSegment(String table, int segment, int totalSegments) {
    List<String> ids = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    int pages = 0;
    do {
      Map<String, AttributeValue> exclusiveStart = start;
      ScanResponse page = dynamo.scan(r -> r.tableName(table)
          .segment(segment).totalSegments(totalSegments)
          .limit(64)
          .exclusiveStartKey(exclusiveStart));
      page.items().forEach(i -> ids.add(i.get("id").s()));
      start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
      assertThat(++pages).isLessThanOrEqualTo(ITEMS / 64 + 2);
    } while (start != null);
    return ids;
  }

  private static Set<String> allIds() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < ITEMS; i++) {
      ids.add("item-" + i);
    }
    return ids;
  }
}
