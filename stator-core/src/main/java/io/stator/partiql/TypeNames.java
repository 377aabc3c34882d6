package io.stator.partiql;

import io.stator.partiql.Lexer.Kind;
import io.stator.partiql.Lexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * PartiQL's type names, as its {@code IS} type test takes them ({@code x IS INT4},
 * {@code x IS DOUBLE PRECISION}). DynamoDB parses them and then refuses the test as an
 * operation it does not run, so Stator reads them only to give that refusal its words.
 */
final class TypeNames {
  private static final Set<String> ONE_WORD = Set.of(
      "NULL", "MISSING", "ANY", "BOOL", "BOOLEAN", "SMALLINT", "INT2", "INTEGER2", "INT",
      "INTEGER", "INT4", "INTEGER4", "INT8", "INTEGER8", "BIGINT", "FLOAT", "REAL", "DECIMAL",
      "DEC", "NUMERIC", "CHAR", "CHARACTER", "VARCHAR", "STRING", "SYMBOL", "BLOB", "CLOB",
      "STRUCT", "TUPLE", "LIST", "SEXP", "BAG", "DATE", "TIME", "TIMESTAMP");

  private TypeNames() {}

  /** How many of the tokens from {@code at} name a type: 0 where they name none. */
  static int length(List<Token> tokens, int at) {
    Token first = tokens.get(at);
    if (first.kind() != Kind.WORD) {
      return 0;
    }
    Token second = tokens.get(Math.min(at + 1, tokens.size() - 1));
    if (first.isKeyword("DOUBLE") && second.isKeyword("PRECISION")
        || first.isKeyword("CHARACTER") && second.isKeyword("VARYING")) {
      return 2;
    }
    return ONE_WORD.contains(first.text().toUpperCase(Locale.ROOT)) ? 1 : 0;
  }
}
