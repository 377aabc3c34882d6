package io.stator.partiql;

import io.stator.api.DynamoDbException;
import io.stator.partiql.Lexer.Kind;
import io.stator.partiql.Lexer.Token;
import io.stator.partiql.Statement.Action;
import io.stator.partiql.Term.PathTerm;
import io.stator.value.AttributeValue;
import io.stator.value.InvalidValueException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A recursive-descent parser of DynamoDB's PartiQL statements. Conditions bind as in SQL: OR
 * below AND below NOT below the comparisons, {@code BETWEEN}, {@code IN} and {@code IS}.
 * Keywords are matched without regard to case; a name that is a keyword must be quoted.
 */
final class Parser {
  /** Words that end or structure a statement, so never an unquoted attribute or table name. */
  private static final Set<String> KEYWORDS =
      Set.of(
          "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "BETWEEN", "IN", "IS", "INSERT", "INTO",
          "VALUE", "VALUES", "UPDATE", "SET", "REMOVE", "DELETE", "RETURNING", "TRUE", "FALSE",
          "NULL", "MISSING", "ORDER", "BY", "GROUP", "JOIN", "LIMIT", "LIKE");

  /**
   * Words and symbols that join terms: where a term should start, DynamoDB calls each one an
   * "Unexpected operator".
   */
  private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", "<=", ">", ">=");

  private static final Set<String> OPERATORS = union(COMPARISONS,
      Set.of("IS", "LIKE", "BETWEEN", "IN", "+", "*", "/"));

  private static final Set<String> FUNCTIONS =
      Set.of(
          "begins_with", "contains", "attribute_type", "attribute_exists",
          "attribute_not_exists", "size", "list_append", "set_add", "set_delete");

  /** Functions of a SET's value only: in a WHERE clause DynamoDB knows no such function. */
  private static final Set<String> SET_FUNCTIONS = Set.of("set_add", "set_delete");

  /**
   * How deep parentheses, NOTs and nested values may go: deeper than any item DynamoDB stores
   * (32 levels), shallow enough that no statement can exhaust the parser's stack.
   */
  private static final int MAX_DEPTH = 64;

  private final String statement;
  private final List<Token> tokens;
  private int next;
  /**
   * Where the value being read sits, as DynamoDB names it when a number literal breaks its rules
   * ("... under root.x"): {@code root} for a value of a condition or a SET and for each
   * attribute of an INSERT's item, then {@code .key} into a map and {@code [i]} into a list.
   */
  private String valuePath = "root";
  /** The next map read is an INSERT's item, whose attributes are each a root. */
  private boolean itemNext;
  /** Reading a WHERE clause. */
  private boolean inWhere;
  /** Reading an INSERT's item, whose values are data and never function calls. */
  private boolean inItem;
  /** The most collection literals a value may sit in, below its item's own level. */
  private static final int MAX_NESTING = 32;
  /** How many list, map or set literals enclose the term being read (an INSERT's item not). */
  private int collections;
  private int parameters;
  private int depth;

  private Parser(String statement, List<Token> tokens) {
    this.statement = statement;
    this.tokens = tokens;
  }

  /** The statement, or a ValidationException that says what is not well formed. */
  static Parsed parse(String statement) {
    Parser parser = new Parser(statement, Lexer.tokens(statement));
    Statement parsed = parser.statement();
    return new Parsed(parsed, parser.parameters);
  }

  /** A statement and how many {@code ?} it holds. */
  record Parsed(Statement statement, int parameterCount) {}

  private Statement statement() {
    Token first = peek();
    Statement statement;
    if (first.isKeyword("SELECT")) {
      statement = select();
    } else if (first.isKeyword("INSERT")) {
      statement = insert();
    } else if (first.isKeyword("UPDATE")) {
      statement = update();
    } else if (first.isKeyword("DELETE")) {
      statement = delete();
    } else if (first.isKeyword("EXISTS") && peekAt(1).isSymbol("(")) {
      next++;
      expectSymbol("(");
      Statement.Select select = (Statement.Select) select();
      expectSymbol(")");
      statement = new Statement.Exists(select);
    } else if (isTypeTest()) {
      // DynamoDB parses a bare type test and then refuses to run it, in these words
      throw DynamoDbException.validation("Unsupported operation: IsType");
    } else {
      throw Statements.malformed("Expected data manipulation");
    }
    if (peek().isSymbol(";")) {
      next++;
    }
    if (peek().kind() != Kind.END) {
      throw Statements.malformed("Unexpected token after expression");
    }
    return statement;
  }

  /** Whether the statement is, whole, a type test: {@code path IS [NOT] <type name>}. */
  private boolean isTypeTest() {
    int start = next;
    try {
      additive();
      if (!acceptKeyword("IS")) {
        return false;
      }
      acceptKeyword("NOT");
      int words = TypeNames.length(tokens, next);
      next += words;
      acceptSymbol(";");
      return words > 0 && peek().kind() == Kind.END;
    } catch (DynamoDbException notATerm) {
      return false;
    } finally {
      next = start;
    }
  }

  private Statement select() {
    expectKeyword("SELECT");
    List<PathTerm> projection = null;
    if (peek().isSymbol("*")) {
      next++;
    } else {
      projection = new ArrayList<>();
      do {
        if (peek().kind() == Kind.WORD && peekAt(1).isSymbol("(")) {
          // a function where a path goes: DynamoDB says where, without the envelope
          throw DynamoDbException.validation("Unexpected path component at " + place(peek()));
        }
        projection.add(path());
      } while (acceptSymbol(","));
    }
    expectKeyword("FROM");
    String table = name();
    String index = acceptSymbol(".") ? name() : null;
    refuseAlias();
    Term where = acceptKeyword("WHERE") ? where() : null;
    return new Statement.Select(table, index, projection, where, orderBy());
  }

  /** {@code ORDER BY key [ASC|DESC], ...}, or none. */
  private List<Statement.OrderBy> orderBy() {
    if (!acceptKeyword("ORDER")) {
      return List.of();
    }
    expectKeyword("BY");
    List<Statement.OrderBy> keys = new ArrayList<>();
    do {
      PathTerm key = path();
      if (!key.isTopLevel()) {
        throw Statements.malformed("Unexpected term: ORDER BY names a key attribute");
      }
      boolean descending = acceptKeyword("DESC");
      if (!descending) {
        acceptKeyword("ASC");
      }
      keys.add(new Statement.OrderBy(key.name(), descending));
    } while (acceptSymbol(","));
    return keys;
  }

  private Statement insert() {
    expectKeyword("INSERT");
    expectKeyword("INTO");
    String table = name();
    if (!peek().isKeyword("VALUE")) {
      // DynamoDB reads INSERT INTO "T" as a whole and what follows as left over, an alias too
      throw Statements.malformed("Unexpected token after expression");
    }
    expectKeyword("VALUE");
    itemNext = true;
    inItem = true;
    Term item = primary();
    inItem = false;
    itemNext = false;
    if (!(item instanceof Term.MapTerm) && !(item instanceof Term.Parameter)) {
      throw Statements.malformed("Unexpected term: an INSERT's VALUE is a map, {...}");
    }
    return new Statement.Insert(table, item);
  }

  private Statement update() {
    expectKeyword("UPDATE");
    String table = name();
    refuseAlias();
    List<Action> actions = new ArrayList<>();
    while (true) {
      if (acceptKeyword("SET")) {
        do {
          PathTerm path = path();
          expectSymbol("=");
          actions.add(new Action.Set(path, additive()));
        } while (acceptSymbol(","));
      } else if (acceptKeyword("REMOVE")) {
        do {
          actions.add(new Action.Remove(path()));
        } while (acceptSymbol(","));
      } else {
        break;
      }
    }
    if (actions.isEmpty()) {
      throw unexpected(peek());
    }
    expectKeyword("WHERE");
    Term where = where();
    return new Statement.Update(table, actions, where, returning());
  }

  private Statement delete() {
    expectKeyword("DELETE");
    expectKeyword("FROM");
    if (!isName(peek())) {
      throw Statements.malformed("Expected identifier for simple path");
    }
    String table = name();
    refuseAlias();
    expectKeyword("WHERE");
    Term where = where();
    return new Statement.Delete(table, where, returning());
  }

  /** {@code RETURNING (ALL|MODIFIED) (OLD|NEW) *} as UpdateItem's ReturnValues, or null. */
  private String returning() {
    if (!acceptKeyword("RETURNING")) {
      return null;
    }
    Token which = take();
    Token age = take();
    expectSymbol("*");
    boolean all = which.isKeyword("ALL");
    if (!all && !which.isKeyword("MODIFIED")) {
      throw unexpected(which);
    }
    if (!age.isKeyword("OLD") && !age.isKeyword("NEW")) {
      throw unexpected(age);
    }
    return (all ? "ALL_" : "UPDATED_") + age.keyword();
  }

  // ---- conditions -------------------------------------------------------------------------

  /** A WHERE clause's condition, where functions of a SET's value are unknown. */
  private Term where() {
    inWhere = true;
    try {
      return condition();
    } finally {
      inWhere = false;
    }
  }

  private Term condition() {
    Term left = conjunction();
    while (acceptKeyword("OR")) {
      requireRightHandSide();
      left = new Term.Or(left, conjunction());
    }
    return left;
  }

  private Term conjunction() {
    Term left = negation();
    while (acceptKeyword("AND")) {
      requireRightHandSide();
      left = new Term.And(left, negation());
    }
    return left;
  }

  /** After an infix operator, a statement that ends has no right-hand side. */
  private void requireRightHandSide() {
    if (peek().kind() == Kind.END || peek().isSymbol(";")) {
      throw Statements.malformed("Missing right-hand side expression of infix operator");
    }
  }

  /**
   * A name after the table's: DynamoDB's PartiQL takes no alias, and says so in a sentence of
   * its own (not as a statement that is not well formed).
   */
  private void refuseAlias() {
    if (isName(peek()) || peek().isKeyword("AS")) {
      throw DynamoDbException.validation("Aliasing is not supported");
    }
  }

  private Term negation() {
    if (acceptKeyword("NOT")) {
      deeper();
      Term operand = negation();
      depth--;
      return new Term.Not(operand);
    }
    return predicate();
  }

  private Term predicate() {
    Term left = additive();
    Token token = peek();
    if (token.kind() == Kind.SYMBOL
        && COMPARISONS.contains(token.text())) {
      next++;
      String operator = token.text().equals("!=") ? "<>" : token.text();
      requireRightHandSide();
      return new Term.Comparison(operator, left, additive());
    }
    if (acceptKeyword("BETWEEN")) {
      Term low = additive();
      expectKeyword("AND");
      return new Term.Between(left, low, additive());
    }
    if (acceptKeyword("IN")) {
      String close = acceptSymbol("(") ? ")" : "]";
      if (close.equals("]")) {
        expectSymbol("[");
      }
      List<Term> candidates = new ArrayList<>();
      do {
        candidates.add(additive());
      } while (acceptSymbol(","));
      expectSymbol(close);
      return new Term.In(left, candidates);
    }
    if (acceptKeyword("IS")) {
      boolean negated = acceptKeyword("NOT");
      Token what = take();
      if (!what.isKeyword("MISSING") && !what.isKeyword("NULL")) {
        throw Statements.malformed("Expected type name");
      }
      return new Term.Is(left, negated, what.isKeyword("MISSING"));
    }
    return left;
  }

  private Term additive() {
    Term left = primary();
    while (peek().isSymbol("+") || peek().isSymbol("-")) {
      String operator = take().text();
      left = new Term.Arithmetic(operator, left, primary());
    }
    return left;
  }

  private Term primary() {
    deeper();
    Term term = primaryTerm();
    depth--;
    return term;
  }

  private void deeper() {
    if (++depth > MAX_DEPTH) {
      throw Statements.malformed("Statement nested more than " + MAX_DEPTH + " levels deep");
    }
  }

  private Term primaryTerm() {
    Token token = peek();
    switch (token.kind()) {
      case PARAMETER -> {
        if (collections > 0) {
          // DynamoDB reads a collection literal as data, where a parameter is no type it stores
          throw DynamoDbException.validation("Unsupported data type: Parameter under key "
              + valuePath + " at " + place(token));
        }
        next++;
        return new Term.Parameter(parameters++);
      }
      case STRING -> {
        next++;
        return new Term.Literal(AttributeValue.s(token.text()));
      }
      case NUMBER -> {
        next++;
        return number(token.text());
      }
      case QUOTED_NAME -> {
        return path();
      }
      case WORD -> {
        if (token.isKeyword("TRUE") || token.isKeyword("FALSE")) {
          next++;
          return new Term.Literal(AttributeValue.bool(token.isKeyword("TRUE")));
        }
        if (token.isKeyword("NULL")) {
          next++;
          return new Term.Literal(AttributeValue.NULL);
        }
        if (peekAt(1).isSymbol("(") && !KEYWORDS.contains(token.keyword())) {
          return call();
        }
        return path();
      }
      case SYMBOL -> {
        if (acceptSymbol("(")) {
          Term inner = condition();
          expectSymbol(")");
          return inner;
        }
        if (token.isSymbol("-") || token.isSymbol("+")) {
          return signedNumber(token);
        }
        if (acceptSymbol("{")) {
          return map();
        }
        if (acceptSymbol("[")) {
          return new Term.ListTerm(elements("]"));
        }
        if (acceptSymbol("<<")) {
          int from = peek().position();
          List<Term> elements = elements(">>");
          refuseRepeatedNumbers(elements, statement.substring(from, tokens.get(next - 1)
              .position()));
          return new Term.SetTerm(elements);
        }
        throw unexpected(token);
      }
      default -> throw unexpected(token);
    }
  }

  private Term map() {
    boolean item = itemNext;
    itemNext = false;
    String outer = valuePath;
    int outerCollections = collections;
    collections += item ? 0 : 1;
    List<Term.MapTerm.Entry> entries = new ArrayList<>();
    if (!acceptSymbol("}")) {
      do {
        Token name = take();
        if (name.kind() != Kind.STRING) {
          throw unexpected(name);
        }
        expectSymbol(":");
        valuePath = item ? "root" : outer + "." + name.text();
        refuseTooDeep();
        entries.add(new Term.MapTerm.Entry(name.text(), additive()));
      } while (acceptSymbol(","));
      expectSymbol("}");
    }
    valuePath = outer;
    collections = outerCollections;
    return new Term.MapTerm(entries);
  }

  /**
   * Refuses a value inside {@value #MAX_NESTING} collection literals: with the item it would be
   * stored in, deeper than DynamoDB's 32 levels (an INSERT's item is one of them), refused
   * with where it sits, as recorded.
   */
  private void refuseTooDeep() {
    if (collections >= MAX_NESTING) {
      throw DynamoDbException.validation(
          "Nesting Levels have exceeded supported limits under " + valuePath);
    }
  }

  private List<Term> elements(String close) {
    itemNext = false;
    String outer = valuePath;
    int outerCollections = collections;
    collections += close.equals(")") ? 0 : 1;
    List<Term> elements = new ArrayList<>();
    if (!acceptSymbol(close)) {
      do {
        if (close.equals("]")) {
          valuePath = outer + "[" + elements.size() + "]";
        }
        refuseTooDeep();
        elements.add(additive());
      } while (acceptSymbol(","));
      expectSymbol(close);
    }
    valuePath = outer;
    collections = outerCollections;
    return elements;
  }

  /**
   * Refuses a number set literal that holds one number twice ({@code <<2, 2.0>>}) in DynamoDB's
   * words for it, with the numbers as written (recorded); {@code written} is the set's text
   * between its brackets. Sets of other values are checked as the JSON API checks them.
   */
  private void refuseRepeatedNumbers(List<Term> elements, String written) {
    List<BigDecimal> numbers = new ArrayList<>();
    for (Term element : elements) {
      if (!(element instanceof Term.Literal literal
          && literal.value() instanceof AttributeValue.N n)) {
        return;
      }
      BigDecimal number = new BigDecimal(n.value());
      if (numbers.stream().anyMatch(other -> other.compareTo(number) == 0)) {
        List<String> shown = new ArrayList<>();
        for (String part : written.split(",")) {
          shown.add(part.trim());
        }
        throw DynamoDbException.validation("One or more parameter values were invalid: Input"
            + " collection " + shown + " contains duplicates! under " + valuePath);
      }
      numbers.add(number);
    }
  }

  /**
   * A number literal after its signs, as DynamoDB reads them: each {@code -} negates, {@code +}
   * changes nothing, and spaces or comments may stand between ({@code - - 1} is 1, recorded);
   * a sign before anything but a number literal ({@code -?}, {@code -n}) is refused.
   */
  private Term signedNumber(Token first) {
    boolean negative = false;
    int at = 0;
    while (peekAt(at).isSymbol("-") || peekAt(at).isSymbol("+")) {
      negative ^= peekAt(at).isSymbol("-");
      at++;
    }
    if (peekAt(at).kind() != Kind.NUMBER) {
      throw unexpected(first);
    }
    next += at;
    String digits = take().text();
    return number(negative ? "-" + digits : digits);
  }

  /**
   * A number literal. One the parser cannot read as a number at all (an exponent beyond an
   * integer's range) leaves DynamoDB's sentence with nothing after its colon; one that breaks
   * DynamoDB's number rules gets their words and where it sits, as recorded.
   */
  private Term number(String text) {
    try {
      new BigDecimal(text);
    } catch (NumberFormatException | ArithmeticException e) {
      throw Statements.malformed("");
    }
    try {
      return new Term.Literal(AttributeValue.n(text));
    } catch (InvalidValueException e) {
      throw DynamoDbException.validation(e.getMessage() + " under " + valuePath);
    }
  }

  private Term call() {
    Token name = take();
    String function = name.text().toLowerCase(java.util.Locale.ROOT);
    if (!FUNCTIONS.contains(function) || (inWhere && SET_FUNCTIONS.contains(function))) {
      // Not a statement that is not well formed to DynamoDB: the function is named, with where
      throw DynamoDbException.validation(
          "Unrecognized function: " + function + " at " + place(name));
    }
    if (inItem) {
      // DynamoDB reads an INSERT's item as data, where a function is no type it stores
      throw DynamoDbException.validation("Unsupported data type: " + function + " under key "
          + valuePath + " at " + place(name));
    }
    expectSymbol("(");
    Token first = peek();
    List<Term> arguments = elements(")");
    if (SET_FUNCTIONS.contains(function) && arguments.size() == 2
        && (arguments.get(1) instanceof Term.Literal || arguments.get(1) instanceof Term.ListTerm
            || arguments.get(1) instanceof Term.MapTerm)) {
      // DynamoDB's words, with the place of the first argument (recorded)
      throw DynamoDbException.validation("The second argument to "
          + function.toUpperCase(java.util.Locale.ROOT) + " must be a value with type SET at "
          + place(first));
    }
    return new Term.Call(function, arguments);
  }

  private PathTerm path() {
    List<Object> elements = new ArrayList<>();
    elements.add(name());
    while (true) {
      if (peek().isSymbol(".") && isName(peekAt(1))) {
        next++;
        elements.add(name());
      } else if (acceptSymbol("[")) {
        boolean negative = acceptSymbol("-");
        Token index = take();
        if (index.kind() == Kind.STRING && !negative) {
          elements.add(index.text());
        } else if (index.kind() == Kind.NUMBER
            && index.text().chars().allMatch(Character::isDigit)) {
          elements.add(listIndex(index, negative));
        } else {
          throw Statements.malformed("Unexpected path component");
        }
        expectSymbol("]");
      } else {
        return new PathTerm(List.copyOf(elements));
      }
    }
  }

  /**
   * A list index: from 0 to the largest int, {@code -0} being 0; else DynamoDB's words, with the
   * place of its digits (recorded: {@code l[-1]} and {@code l[2147483648]}).
   */
  private Integer listIndex(Token digits, boolean negative) {
    String shown = (negative ? "-" : "") + digits.text();
    try {
      int index = Integer.parseInt(digits.text());
      if (!negative || index == 0) {
        return index;
      }
    } catch (NumberFormatException beyondInt) {
      // refused below, as a negative index is
    }
    throw DynamoDbException.validation("List index is not within the allowable range; index: ["
        + shown + "] at " + place(digits));
  }

  private boolean isName(Token token) {
    return token.kind() == Kind.QUOTED_NAME
        || (token.kind() == Kind.WORD && !KEYWORDS.contains(token.keyword()));
  }

  /** A table or attribute name: quoted, or an unquoted word that is not a keyword. */
  private String name() {
    Token token = take();
    if (!isName(token)) {
      throw unexpected(token);
    }
    return token.text();
  }

  // ---- tokens -----------------------------------------------------------------------------

  private Token peek() {
    return tokens.get(next);
  }

  private Token peekAt(int ahead) {
    return tokens.get(Math.min(next + ahead, tokens.size() - 1));
  }

  private Token take() {
    Token token = peek();
    if (token.kind() != Kind.END) {
      next++;
    }
    return token;
  }

  private boolean acceptKeyword(String keyword) {
    if (peek().isKeyword(keyword)) {
      next++;
      return true;
    }
    return false;
  }

  private boolean acceptSymbol(String symbol) {
    if (peek().isSymbol(symbol)) {
      next++;
      return true;
    }
    return false;
  }

  private void expectKeyword(String keyword) {
    if (!acceptKeyword(keyword)) {
      throw unexpected(peek());
    }
  }

  private void expectSymbol(String symbol) {
    if (!acceptSymbol(symbol)) {
      throw unexpected(peek());
    }
  }

  /**
   * DynamoDB names the kind of what it did not expect, and nothing more (as recorded): an
   * operator where a term should start, a keyword, or any other term, the end of the statement
   * included.
   */
  private static RuntimeException unexpected(Token token) {
    String kind;
    if (OPERATORS.contains(token.kind() == Kind.WORD ? token.keyword() : token.text())
        && token.kind() != Kind.STRING && token.kind() != Kind.QUOTED_NAME) {
      kind = "Unexpected operator";
    } else if (token.kind() == Kind.WORD && KEYWORDS.contains(token.keyword())) {
      kind = "Unexpected keyword";
    } else {
      kind = "Unexpected term";
    }
    return Statements.malformed(kind);
  }

  /**
   * Where a token is, as DynamoDB's messages that point into a statement say it: {@code
   * line:column:length}, counted in characters from 1.
   */
  private String place(Token token) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < token.position(); i++) {
      if (statement.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return line + ":" + (token.position() - lineStart + 1) + ":" + sourceLength(token);
  }

  /** How many characters a token takes in the statement: a quoted one with its quotes. */
  private int sourceLength(Token token) {
    char quote = token.position() < statement.length() ? statement.charAt(token.position()) : 0;
    if (quote != '"' && quote != '\'') {
      return token.text().length();
    }
    int end = token.position() + 1;
    while (end < statement.length()) {
      if (statement.charAt(end) == quote) {
        if (end + 1 < statement.length() && statement.charAt(end + 1) == quote) {
          end += 2;
          continue;
        }
        return end + 1 - token.position();
      }
      end++;
    }
    return statement.length() - token.position();
  }


  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new java.util.HashSet<>(a);
    out.addAll(b);
    return Set.copyOf(out);
  }
}
