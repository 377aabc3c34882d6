package io.stator.server.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DynamoDbException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Every ShapeReader hands each member's value to the record component of that member's name.
 * The values reach the constructor by position, so two members of one type listed in another
 * order than the record's components would be read without an error into each other's place;
 * this reads each member alone and looks where its value landed.
 */
class ShapeReaderTest {
  /** A value of each JSON type a member may take, tried in turn until the member reads one. */
  private static final List<String> VALUES =
      List.of("\"s\"", "7", "true", "[{}]", "[\"a\"]", "{}");

  private static final List<Class<?>> READERS =
      List.of(Requests.class, BackupRequests.class, ExportRequests.class, StreamRequests.class,
          PolicyRequests.class, SettingsRequests.class);

  @Test
  void eachMemberReachesTheComponentOfItsName() throws Exception {
    List<String> checked = new ArrayList<>();
    for (Class<?> type : READERS) {
      for (Field field : type.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == ShapeReader.class) {
          field.setAccessible(true);
          check(field.getName(), (ShapeReader<?>) field.get(null), checked);
        }
      }
    }
    assertThat(checked).contains("CreateTableRequest.TableName", "Tag.Value",
        "CreateGlobalSecondaryIndexAction.OnDemandThroughput", "ListImportsRequest.PageSize",
        "RestoreTableToPointInTimeRequest.SSESpecificationOverride", "ShardFilter.ShardId",
        "InputFormatOptions.HeaderList");
  }

  private static void check(String name, ShapeReader<?> reader, List<String> checked)
      throws Exception {
    Record empty = (Record) JsonInputTest.root("{}", reader);
    for (ShapeReader.Member member : reader.members()) {
      Record read = readAlone(reader, member.name());
      assertThat(read).as(name + "." + member.name() + " reads no value").isNotNull();
      List<String> changed = new ArrayList<>();
      for (RecordComponent c : empty.getClass().getRecordComponents()) {
        if (!Objects.equals(c.getAccessor().invoke(empty), c.getAccessor().invoke(read))) {
          changed.add(c.getName());
        }
      }
      ShapeReader<?> nested =
          member.reader() instanceof ShapeReader<?> r ? r : null;
      // InputFormatOptions keeps its Csv member's members: that member is the record itself.
      boolean itself =
          nested != null && JsonInputTest.root("{}", nested).getClass() == empty.getClass();
      if (!itself) {
        assertThat(changed).as(name + "." + member.name()).hasSize(1);
        assertThat(sameName(member.name(), changed.get(0)))
            .as(name + "." + member.name() + " lands in " + changed.get(0)).isTrue();
        checked.add(empty.getClass().getSimpleName() + "." + member.name());
      }
      if (nested != null) {
        check(name + "." + member.name(), nested, checked);
      }
    }
  }

  /** The record read from a body of {@code member} alone, with the first value it takes. */
  private static Record readAlone(ShapeReader<?> reader, String member) throws Exception {
    for (String value : VALUES) {
      try {
        return (Record) JsonInputTest.root("{\"" + member + "\":" + value + "}", reader);
      } catch (DynamoDbException wrongType) {
        // Another value next: this member does not take that JSON type.
      }
    }
    return null;
  }

  /** A component's name is the member's (e.g. csvDelimiter for Delimiter of CsvOptions). */
  private static boolean sameName(String member, String component) {
    String m = member.toLowerCase(Locale.ROOT);
    String c = component.toLowerCase(Locale.ROOT);
    return c.equals(m) || c.endsWith(m) || m.startsWith(c);
  }
}
