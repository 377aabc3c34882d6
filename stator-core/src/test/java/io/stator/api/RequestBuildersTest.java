package io.stator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.value.AttributeValue;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The builders generated for the API's requests: one for every request record, and the records
 * a request holds, usable to write a whole exchange with the embedded database that names only
 * the members it sets.
 */
class RequestBuildersTest {
  @Test
  void everyRequestRecordHasABuilder() throws IOException, ReflectiveOperationException {
    List<String> requests;
    try (Stream<Path> files = Files.list(Path.of("target", "classes", "io", "stator", "api"))) {
      requests = files.map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith("Request.class"))
          .map(name -> name.substring(0, name.length() - ".class".length()))
          .sorted()
          .toList();
    }
    assertThat(requests).contains("QueryRequest", "TransactWriteItemsRequest", "GetRecordsRequest");
    for (String request : requests) {
      Class<?> record = Class.forName("io.stator.api." + request);
      if (record.isInterface()) {
        continue; // TableRequest: what the single-table requests have in common, not a shape
      }
      assertThat(record.isRecord()).as(request).isTrue();
      Class<?> builder = Class.forName("io.stator.api." + request + "Builder");
      Method make = builder.getMethod("builder");
      assertThat(Modifier.isStatic(make.getModifiers())).as(request).isTrue();
      Object empty = builder.getMethod("build").invoke(make.invoke(null));
      assertThat(empty).as(request).isInstanceOf(record);
    }
  }

  @Test
  void aTableIsMadeWrittenAndQueriedThroughBuilders() {
    try (Database db = Stator.inMemory()) {
      db.createTable(CreateTableRequestBuilder.builder()
          .tableName("Orders")
          .attributeDefinitions(List.of(
              new AttributeDefinition("customer", "S"), new AttributeDefinition("order", "N")))
          .keySchema(List.of(
              new KeySchemaElement("customer", "HASH"), new KeySchemaElement("order", "RANGE")))
          .billingMode("PAY_PER_REQUEST")
          .build());
      for (int order = 1; order <= 3; order++) {
        db.putItem(PutItemRequestBuilder.builder()
            .tableName("Orders")
            .item(Map.of("customer", new AttributeValue.S("c-42"),
                "order", new AttributeValue.N(Integer.toString(order))))
            .build());
      }

      QueryResponse page = db.query(QueryRequestBuilder.builder()
          .tableName("Orders")
          .keyConditionExpression("customer = :c AND #o >= :from")
          .expressionAttributeNames(Map.of("#o", "order"))
          .expressionAttributeValues(Map.of(
              ":c", new AttributeValue.S("c-42"), ":from", new AttributeValue.N("2")))
          .scanIndexForward(false)
          .build());

      assertThat(page.items()).extracting(item -> item.get("order"))
          .containsExactly(new AttributeValue.N("3"), new AttributeValue.N("2"));
      // A builder leaves out what it was not given: a request missing a required member gets
      // DynamoDB's validation error, as a client that leaves it out would.
      assertThatThrownBy(() -> db.query(QueryRequestBuilder.builder().tableName("Orders").build()))
          .isInstanceOf(DynamoDbException.class)
          .extracting(e -> ((DynamoDbException) e).type())
          .isEqualTo(ErrorType.ValidationException);
    }
  }
}
