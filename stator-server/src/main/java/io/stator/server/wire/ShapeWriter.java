package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.server.wire.Responses.Writer;
import java.io.IOException;
import java.time.Instant;
import java.util.function.Function;

/**
 * How one structure shape of the response model is written: a JSON object of its members, each
 * a name, the record's accessor and how the value is written, in the order DynamoDB answers
 * them. A member whose value is null is left out, as DynamoDB leaves it out.
 *
 * <p>Writing one allocates nothing: the members are made once, when the shape is described. The
 * data plane's responses (GetItem, PutItem, Query and the like) keep their own writers in
 * {@link Responses}, which need no call through a member list.
 *
 * @param <T> the record the shape writes
 */
final class ShapeWriter<T> implements Writer<T> {
  private final Writer<? super T>[] members;

  private ShapeWriter(Writer<? super T>[] members) {
    this.members = members;
  }

  /** An object of {@code members}, each of which writes its name and value, or nothing. */
  @SafeVarargs
  static <T> ShapeWriter<T> object(Writer<? super T>... members) {
    return new ShapeWriter<>(members);
  }

  @Override
  public void write(JsonGenerator out, T value) throws IOException {
    out.writeStartObject();
    for (Writer<? super T> member : members) {
      member.write(out, value);
    }
    out.writeEndObject();
  }

  static <T> Writer<T> string(String name, Function<T, String> member) {
    return (out, value) -> Responses.string(out, name, member.apply(value));
  }

  static <T> Writer<T> number(String name, Function<T, Long> member) {
    return (out, value) -> Responses.number(out, name, member.apply(value));
  }

  static <T> Writer<T> bool(String name, Function<T, Boolean> member) {
    return (out, value) -> Responses.bool(out, name, member.apply(value));
  }

  static <T> Writer<T> timestamp(String name, Function<T, Instant> member) {
    return (out, value) -> Responses.timestamp(out, name, member.apply(value));
  }

  static <T, V> Writer<T> field(String name, Function<T, V> member, Writer<? super V> writer) {
    return (out, value) -> {
      V v = member.apply(value);
      if (v != null) {
        out.writeFieldName(name);
        writer.write(out, v);
      }
    };
  }
}
