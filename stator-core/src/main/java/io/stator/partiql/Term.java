package io.stator.partiql;

import io.stator.value.AttributeValue;
import java.util.List;

/**
 * The syntax tree of PartiQL's values and conditions: what a WHERE clause, a SET value or an
 * INSERT's item is made of. A value that holds a {@code ?} stays a tree until the statement is
 * bound to its Parameters.
 */
sealed interface Term {

  /** A document path: a top-level name, then map keys and list indexes. */
  record PathTerm(List<Object> elements) implements Term {
    String name() {
      return (String) elements.get(0);
    }

    boolean isTopLevel() {
      return elements.size() == 1;
    }
  }

  /** A scalar literal: a string, a number, a boolean or NULL. */
  record Literal(AttributeValue value) implements Term {}

  /** The {@code index}th {@code ?} of the statement, from 0. */
  record Parameter(int index) implements Term {}

  /** {@code {'name': value, ...}}. */
  record MapTerm(List<Entry> entries) implements Term {
    record Entry(String name, Term value) {}
  }

  /** {@code [value, ...]}. */
  record ListTerm(List<Term> elements) implements Term {}

  /** {@code <<value, ...>>}: a string, number or binary set. */
  record SetTerm(List<Term> elements) implements Term {}

  /** A comparison: {@code =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=}. */
  record Comparison(String operator, Term left, Term right) implements Term {}

  /** {@code left + right} or {@code left - right}, in an UPDATE's SET. */
  record Arithmetic(String operator, Term left, Term right) implements Term {}

  record And(Term left, Term right) implements Term {}

  record Or(Term left, Term right) implements Term {}

  record Not(Term operand) implements Term {}

  record Between(Term operand, Term low, Term high) implements Term {}

  record In(Term operand, List<Term> candidates) implements Term {}

  /** {@code path IS [NOT] MISSING} or {@code path IS [NOT] NULL}. */
  record Is(Term operand, boolean negated, boolean missing) implements Term {}

  /**
   * A function call: {@code begins_with}, {@code contains}, {@code attribute_type}, {@code
   * size}, {@code list_append}, {@code set_add}, {@code set_delete}, {@code exists}, named in
   * lower case.
   */
  record Call(String function, List<Term> arguments) implements Term {}
}
