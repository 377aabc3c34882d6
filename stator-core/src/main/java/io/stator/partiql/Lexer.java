package io.stator.partiql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PartiQL's tokens: unquoted identifiers (and keywords, matched without regard to case),
 * double-quoted identifiers, single-quoted strings ({@code ''} is a quote), numbers, {@code ?}
 * parameters and punctuation, {@code <<} and {@code >>} for sets included.
 */
final class Lexer {
  enum Kind {
    WORD,
    QUOTED_NAME,
    STRING,
    NUMBER,
    PARAMETER,
    SYMBOL,
    END
  }

  /** One token: its kind, its text (unquoted for names and strings) and where it starts. */
  record Token(Kind kind, String text, int position) {
    /** Whether this is the keyword {@code word} (an unquoted word, in any case). */
    boolean isKeyword(String word) {
      return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    boolean isSymbol(String symbol) {
      return kind == Kind.SYMBOL && text.equals(symbol);
    }

    String keyword() {
      return text.toUpperCase(Locale.ROOT);
    }
  }

  private static final String[] SYMBOLS = {
    "<<", ">>", "<=", ">=", "<>", "!=", "=", "<", ">", "(", ")", "[", "]", "{", "}", ",", ".",
    ":", "*", "+", "-", ";"
  };

  private Lexer() {}

  static List<Token> tokens(String statement) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    int n = statement.length();
    while (i < n) {
      char c = statement.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && statement.charAt(i + 1) == '-') {
        while (i < n && statement.charAt(i) != '\n') {
          i++; // a comment to the end of the line
        }
      } else if (c == '/' && i + 1 < n && statement.charAt(i + 1) == '*') {
        int end = statement.indexOf("*/", i + 2);
        if (end < 0) {
          throw Statements.malformed(""); // DynamoDB says no more of what its lexer refuses
        }
        i = end + 2; // a block comment
      } else if (c == '\'' || c == '"') {
        StringBuilder text = new StringBuilder();
        int start = i++;
        while (true) {
          if (i >= n) {
            String what = c == '"' ? "quoted identifier" : "string";
            throw Statements.malformed("Unterminated " + what);
          }
          char d = statement.charAt(i++);
          if (d == c) {
            if (i < n && statement.charAt(i) == c) {
              text.append(c);
              i++;
            } else {
              break;
            }
          } else {
            text.append(d);
          }
        }
        tokens.add(new Token(c == '"' ? Kind.QUOTED_NAME : Kind.STRING, text.toString(), start));
      } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && isDigit(statement, i + 1))) {
        int start = i;
        while (i < n && (Character.isDigit(statement.charAt(i)) || statement.charAt(i) == '.')) {
          i++;
        }
        if (i < n && (statement.charAt(i) == 'e' || statement.charAt(i) == 'E')) {
          int exponent = i + 1;
          if (exponent < n
              && (statement.charAt(exponent) == '+' || statement.charAt(exponent) == '-')) {
            exponent++;
          }
          if (isDigit(statement, exponent)) {
            i = exponent;
            while (isDigit(statement, i)) {
              i++;
            }
          }
        }
        tokens.add(new Token(Kind.NUMBER, statement.substring(start, i), start));
      } else if (Character.isLetter(c) || c == '_' || c == '$') {
        int start = i;
        while (i < n && isWordPart(statement.charAt(i))) {
          i++;
        }
        tokens.add(new Token(Kind.WORD, statement.substring(start, i), start));
      } else if (c == '?') {
        tokens.add(new Token(Kind.PARAMETER, "?", i++));
      } else {
        String symbol = symbolAt(statement, i);
        if (symbol == null) {
          // As DynamoDB answers a character its lexer refuses ('#' is recorded): nothing after
          // the sentence's colon.
          throw Statements.malformed("");
        }
        tokens.add(new Token(Kind.SYMBOL, symbol, i));
        i += symbol.length();
      }
    }
    tokens.add(new Token(Kind.END, "", n));
    return tokens;
  }

  private static boolean isDigit(String s, int i) {
    return i < s.length() && Character.isDigit(s.charAt(i));
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private static String symbolAt(String statement, int i) {
    for (String symbol : SYMBOLS) {
      if (statement.startsWith(symbol, i)) {
        return symbol;
      }
    }
    return null;
  }
}
