package io.stator.partiql;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Statements come from untrusted clients: whatever the text, parsing succeeds or throws a
 * ValidationException, never anything else (no parser bug may become a 500).
 */
class ParserFuzzTest {
  private static final List<String> FRAGMENTS =
      List.of(
          "SELECT", "INSERT", "INTO", "VALUE", "UPDATE", "SET", "REMOVE", "DELETE", "FROM",
          "WHERE", "AND", "OR", "NOT", "IN", "IS", "MISSING", "NULL", "BETWEEN", "RETURNING",
          "ALL", "OLD", "NEW", "*", "\"T\"", "t", "a", "b.c", "[0]", "['k']", "=", "<>", "<",
          ">=", "+", "-", "?", "'s'", "''", "'", "\"", "1", "-2.5e3", "1e999", "<<", ">>", "{",
          "}", "[", "]", "(", ")", ",", ".", ":", ";", "begins_with(", "size(", "set_add(",
          " ", "\u0000", "\uD83D", "#", "--");

  @Provide
  Arbitrary<String> statements() {
    return Arbitraries.of(FRAGMENTS).list().ofMaxSize(30).map(l -> String.join(" ", l));
  }

  @Property
  void parsesOrSaysWhy(@ForAll("statements") String statement) {
    try {
      Parser.Parsed parsed = Parser.parse(statement);
      assertThat(parsed.statement()).isNotNull();
    } catch (DynamoDbException e) {
      assertThat(e.type()).isEqualTo(ErrorType.ValidationException);
    }
  }
}
