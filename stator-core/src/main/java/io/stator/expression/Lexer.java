package io.stator.expression;

import java.util.Arrays;

/**
 * Splits an expression into tokens, once, before parsing. Tokens are kept as parallel int arrays
 * (kind, start, end) rather than objects: an expression is at most 4 KB, so this is a couple of
 * small arrays per expression and no per-token allocation.
 *
 * <p>DynamoDB's lexical rules: whitespace separates tokens; a name is a letter or '_' followed by
 * letters, digits and '_'; {@code #name} and {@code :value} placeholders are the marker followed by
 * letters, digits and '_'; numbers (list indexes) are decimal digits. Any other character is a
 * token of its own that no grammar rule accepts, so it surfaces as DynamoDB's "Syntax error;
 * token: ...".
 */
final class Lexer {
  static final int NAME = 0;
  static final int NAME_PLACEHOLDER = 1;
  static final int VALUE_PLACEHOLDER = 2;
  static final int NUMBER = 3;
  static final int LPAREN = 4;
  static final int RPAREN = 5;
  static final int LBRACKET = 6;
  static final int RBRACKET = 7;
  static final int DOT = 8;
  static final int COMMA = 9;
  static final int EQ = 10;
  static final int NE = 11;
  static final int LT = 12;
  static final int LE = 13;
  static final int GT = 14;
  static final int GE = 15;
  static final int PLUS = 16;
  static final int MINUS = 17;
  /** A character no rule accepts. */
  static final int INVALID = 18;
  static final int EOF = 19;

  final String text;
  int count;
  int[] kinds;
  int[] starts;
  int[] ends;

  Lexer(String text) {
    this.text = text;
    int capacity = Math.min(text.length() + 1, 64);
    kinds = new int[capacity];
    starts = new int[capacity];
    ends = new int[capacity];
    tokenize();
  }

  static boolean isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  static boolean isNameChar(char c) {
    return isNameStart(c) || (c >= '0' && c <= '9');
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private void tokenize() {
    int n = text.length();
    int i = 0;
    while (true) {
      while (i < n && isWhitespace(text.charAt(i))) {
        i++;
      }
      if (i >= n) {
        add(EOF, n, n);
        return;
      }
      char c = text.charAt(i);
      int start = i;
      int kind;
      if (isNameStart(c)) {
        i = skipNameChars(i + 1);
        kind = NAME;
      } else if (c >= '0' && c <= '9') {
        while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
          i++;
        }
        kind = NUMBER;
      } else if ((c == '#' || c == ':') && i + 1 < n && isNameChar(text.charAt(i + 1))) {
        i = skipNameChars(i + 1);
        kind = c == '#' ? NAME_PLACEHOLDER : VALUE_PLACEHOLDER;
      } else {
        i++;
        switch (c) {
          case '(' -> kind = LPAREN;
          case ')' -> kind = RPAREN;
          case '[' -> kind = LBRACKET;
          case ']' -> kind = RBRACKET;
          case '.' -> kind = DOT;
          case ',' -> kind = COMMA;
          case '=' -> kind = EQ;
          case '+' -> kind = PLUS;
          case '-' -> kind = MINUS;
          case '<' -> {
            if (i < n && text.charAt(i) == '=') {
              i++;
              kind = LE;
            } else if (i < n && text.charAt(i) == '>') {
              i++;
              kind = NE;
            } else {
              kind = LT;
            }
          }
          case '>' -> {
            if (i < n && text.charAt(i) == '=') {
              i++;
              kind = GE;
            } else {
              kind = GT;
            }
          }
          default -> {
            // Keep a surrogate pair together so that the error names the whole character.
            if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(text.charAt(i))) {
              i++;
            }
            kind = INVALID;
          }
        }
      }
      add(kind, start, i);
    }
  }

  private int skipNameChars(int i) {
    int n = text.length();
    while (i < n && isNameChar(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private void add(int kind, int start, int end) {
    if (count == kinds.length) {
      int capacity = count * 2;
      kinds = Arrays.copyOf(kinds, capacity);
      starts = Arrays.copyOf(starts, capacity);
      ends = Arrays.copyOf(ends, capacity);
    }
    kinds[count] = kind;
    starts[count] = start;
    ends[count] = end;
    count++;
  }

  String tokenText(int index) {
    return kinds[index] == EOF ? "<EOF>" : text.substring(starts[index], ends[index]);
  }

  /** True when token {@code index} is the keyword {@code word} (keywords are case-insensitive). */
  boolean isKeyword(int index, String word) {
    return kinds[index] == NAME
        && ends[index] - starts[index] == word.length()
        && text.regionMatches(true, starts[index], word, 0, word.length());
  }

  /**
   * The text DynamoDB quotes after "near:" in a syntax error: from the token before the offending
   * one to the token after it, with the whitespace between them as written.
   */
  String near(int index) {
    int from = index > 0 ? starts[index - 1] : starts[index];
    int to;
    if (kinds[index] == EOF) {
      to = text.length();
    } else if (index + 1 < count && kinds[index + 1] != EOF) {
      to = ends[index + 1];
    } else {
      to = ends[index];
    }
    return text.substring(from, to);
  }
}
