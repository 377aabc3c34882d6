package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The shape of ConsumedCapacity as DynamoDB answers it: TOTAL is the table name and
 * CapacityUnits alone; INDEXES adds the table's and each index's CapacityUnits, without the
 * read/write split, the index writes summed into the total. Only the transactions split reads
 * from writes.
 */
class ConsumedCapacityShapeTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  private String indexedTable() {
    String name = uniqueTableName("rcc");
    dynamo.createTable(b -> b.tableName(name)
        .keySchema(key("pk", KeyType.HASH))
        .attributeDefinitions(attribute("pk", S), attribute("g", S))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .globalSecondaryIndexes(i -> i.indexName("byG").keySchema(key("g", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.ALL))));
    awaitActive(name);
    return name;
  }

  private static Capacity units(double units) {
    return Capacity.builder().capacityUnits(units).build();
  }

  @Test
  void totalAndIndexesAnswerCapacityUnitsWithoutTheReadWriteSplit() {
    String table = indexedTable();
    ConsumedCapacity put = dynamo.putItem(r -> r.tableName(table)
        .item(item("pk", s("a"), "g", s("x")))
        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    assertThat(put).isEqualTo(ConsumedCapacity.builder().tableName(table).capacityUnits(2.0)
        .table(units(1.0)).globalSecondaryIndexes(Map.of("byG", units(1.0))).build());

    ConsumedCapacity update = dynamo.updateItem(r -> r.tableName(table)
        .key(item("pk", s("a"))).updateExpression("SET v = :v")
        .expressionAttributeValues(Map.of(":v", n("1")))
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
    assertThat(update).isEqualTo(
        ConsumedCapacity.builder().tableName(table).capacityUnits(2.0).build());

    ConsumedCapacity get = dynamo.getItem(r -> r.tableName(table).key(item("pk", s("a")))
        .consistentRead(true).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
        .consumedCapacity();
    assertThat(get).isEqualTo(ConsumedCapacity.builder().tableName(table).capacityUnits(1.0)
        .table(units(1.0)).build());

    ConsumedCapacity query = dynamo.query(r -> r.tableName(table).indexName("byG")
        .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s("x")))
        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    assertThat(query.readCapacityUnits()).isNull();
    assertThat(query.globalSecondaryIndexes().get("byG").readCapacityUnits()).isNull();
    assertThat(query.globalSecondaryIndexes().get("byG").capacityUnits()).isEqualTo(0.5);

    ConsumedCapacity scan = dynamo.scan(r -> r.tableName(table)
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
    assertThat(scan).isEqualTo(
        ConsumedCapacity.builder().tableName(table).capacityUnits(0.5).build());

    ConsumedCapacity delete = dynamo.deleteItem(r -> r.tableName(table)
        .key(item("pk", s("a"))).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
        .consumedCapacity();
    assertThat(delete.writeCapacityUnits()).isNull();
    assertThat(delete.table()).isEqualTo(units(1.0));
    assertThat(delete.globalSecondaryIndexes()).isEqualTo(Map.of("byG", units(1.0)));
    assertThat(delete.capacityUnits()).isEqualTo(2.0);
  }

  @Test
  void transactionsSplitWritesFromReads() {
    String table = indexedTable();
    ConsumedCapacity written = dynamo.transactWriteItems(r -> r.transactItems(
            TransactWriteItem.builder().put(p -> p.tableName(table)
                .item(item("pk", s("t"), "g", s("y")))).build())
        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity().get(0);
    assertThat(written.writeCapacityUnits()).isEqualTo(written.capacityUnits());
    assertThat(written.readCapacityUnits()).isNull();
    assertThat(written.table().writeCapacityUnits()).isEqualTo(2.0);

    ConsumedCapacity read = dynamo.transactGetItems(r -> r.transactItems(
            g -> g.get(x -> x.tableName(table).key(item("pk", s("t")))))
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().get(0);
    assertThat(read).isEqualTo(ConsumedCapacity.builder().tableName(table).capacityUnits(2.0)
        .readCapacityUnits(2.0).build());
  }
}
