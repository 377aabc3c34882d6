package io.stator.value;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A DynamoDB attribute value: one record per DynamoDB data type.
 *
 * <p>Instances are immutable and always valid: a number is already normalised (see {@link
 * Numbers}), a set is non-empty and free of duplicates. Factories that take user input ({@link
 * #n(String)}, {@link #ss(java.util.Collection)} ...) throw a {@code ValidationException} when the
 * input breaks DynamoDB's rules, so no invalid value reaches the engine.
 */
public sealed interface AttributeValue {

  /** The DynamoDB type descriptor: "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS". */
  String type();

  /** A string. May be empty outside of key attributes. */
  record S(String value) implements AttributeValue {
    public S {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String type() {
      return "S";
    }
  }

  /** A number, held as its normalised decimal text (e.g. "1.5", "1000", "-0.001"). */
  record N(String value) implements AttributeValue {
    public N {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String type() {
      return "N";
    }

    public java.math.BigDecimal decimal() {
      return new java.math.BigDecimal(value);
    }
  }

  /** A binary value. May be empty outside of key attributes. */
  record B(Bytes value) implements AttributeValue {
    public B {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String type() {
      return "B";
    }
  }

  record Bool(boolean value) implements AttributeValue {
    @Override
    public String type() {
      return "BOOL";
    }
  }

  /** The NULL type. Its only value is {@code true}. */
  record Null() implements AttributeValue {
    @Override
    public String type() {
      return "NULL";
    }
  }

  /** A map of attribute names to values, in insertion order. */
  record M(Map<String, AttributeValue> value) implements AttributeValue {
    public M {
      value = Collections.unmodifiableMap(new java.util.LinkedHashMap<>(value));
    }

    @Override
    public String type() {
      return "M";
    }
  }

  /** A list of values. */
  record L(List<AttributeValue> value) implements AttributeValue {
    public L {
      value = List.copyOf(value);
    }

    @Override
    public String type() {
      return "L";
    }
  }

  /** A string set: non-empty, no duplicates, insertion order kept. */
  record SS(Set<String> value) implements AttributeValue {
    public SS {
      value = Collections.unmodifiableSet(new LinkedHashSet<>(value));
    }

    @Override
    public String type() {
      return "SS";
    }
  }

  /** A number set: normalised numbers, non-empty, no duplicates. */
  record NS(Set<String> value) implements AttributeValue {
    public NS {
      value = Collections.unmodifiableSet(new LinkedHashSet<>(value));
    }

    @Override
    public String type() {
      return "NS";
    }
  }

  /** A binary set: non-empty, no duplicates. */
  record BS(Set<Bytes> value) implements AttributeValue {
    public BS {
      value = Collections.unmodifiableSet(new LinkedHashSet<>(value));
    }

    @Override
    public String type() {
      return "BS";
    }
  }

  // ---- factories that validate user input -------------------------------------------------

  static S s(String value) {
    return new S(value);
  }

  /** A number from its text; normalises it or throws ValidationException. */
  static N n(String text) {
    return new N(Numbers.normalize(text));
  }

  static B b(byte[] value) {
    return new B(Bytes.of(value));
  }

  static Bool bool(boolean value) {
    return new Bool(value);
  }

  Null NULL = new Null();

  static M m(Map<String, AttributeValue> value) {
    return new M(value);
  }

  static L l(List<AttributeValue> value) {
    return new L(value);
  }

  /** A string set; throws ValidationException when empty or when it holds duplicates. */
  static SS ss(java.util.Collection<String> values) {
    return new SS(Sets.checked(values, "SS"));
  }

  /** A number set; normalises every member, then rejects empty sets and duplicates. */
  static NS ns(java.util.Collection<String> values) {
    List<String> normalized = values.stream().map(Numbers::normalize).toList();
    return new NS(Sets.checked(normalized, "NS"));
  }

  /** A binary set; throws ValidationException when empty or when it holds duplicates. */
  static BS bs(java.util.Collection<Bytes> values) {
    return new BS(Sets.checked(values, "BS"));
  }
}
