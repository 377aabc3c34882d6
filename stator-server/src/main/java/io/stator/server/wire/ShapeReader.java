package io.stator.server.wire;

import java.io.IOException;
import java.util.List;

/**
 * How one structure shape of the request model is read: its members' names and readers, and the
 * record their values make. One loop ({@link #read}) serves every shape described so, which
 * leaves each shape only the lines that say what is particular to it.
 *
 * <p>The values reach the record's constructor through {@link Values#next}, in the order the
 * members are listed, which is the order of the record's components. A member the shape does
 * not name is skipped, as DynamoDB ignores it; one that is absent (or JSON null) is null. A type
 * error is thrown by the member's reader as the loop meets it, as the hand-written loops did.
 *
 * <p>Reading one allocates an array of the values and a cursor over them. The data plane's
 * requests (GetItem, PutItem, Query and the like) keep their own loops, which allocate neither.
 *
 * @param <T> the record the shape reads into
 */
final class ShapeReader<T> implements JsonInput.Reader<T> {

  /** Makes the record from the members' values, taken in the order the members are listed. */
  @FunctionalInterface
  interface Constructor<T> {
    T construct(Values values);
  }

  /** One member: its name in the model and how its value is read. */
  record Member(String name, JsonInput.Reader<?> reader) {}

  /** The members' values in the order they are listed, handed out one at a time. */
  static final class Values {
    private final Object[] values;
    private int next;

    private Values(Object[] values) {
      this.values = values;
    }

    /** The next member's value, of the type its reader reads (the constructor's parameter). */
    @SuppressWarnings("unchecked")
    <V> V next() {
      return (V) values[next++];
    }
  }

  private final String shape;
  private final Member[] members;
  private final Constructor<T> constructor;
  private final JsonInput.Reader<T> memberLoop = this::readMembers;

  private ShapeReader(String shape, Constructor<T> constructor, Member[] members) {
    this.shape = shape;
    this.constructor = constructor;
    this.members = members;
  }

  /** A request's top level, whose object the protocol has already opened. */
  static <T> ShapeReader<T> request(Constructor<T> constructor, Member... members) {
    return new ShapeReader<>(null, constructor, members);
  }

  /** A structure nested in a request, named {@code shape} in DynamoDB's type errors. */
  static <T> ShapeReader<T> structure(
      String shape, Constructor<T> constructor, Member... members) {
    return new ShapeReader<>(shape, constructor, members);
  }

  static Member member(String name, JsonInput.Reader<?> reader) {
    return new Member(name, reader);
  }

  /** The members in the order the constructor takes their values (ShapeReaderTest checks it). */
  List<Member> members() {
    return List.of(members);
  }

  @Override
  public T read(JsonInput in) throws IOException {
    return shape == null ? readMembers(in) : in.struct(shape, memberLoop);
  }

  private T readMembers(JsonInput in) throws IOException {
    Object[] values = new Object[members.length];
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      int i = indexOf(m);
      if (i < 0) {
        in.skip();
      } else {
        values[i] = members[i].reader().read(in);
      }
    }
    return constructor.construct(new Values(values));
  }

  private int indexOf(String name) {
    for (int i = 0; i < members.length; i++) {
      if (members[i].name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
