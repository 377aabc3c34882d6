package io.stator.expression;

import io.stator.api.DynamoDbException;
import io.stator.expression.ConditionExpression.Comparator;
import io.stator.expression.ConditionExpression.FunctionName;
import io.stator.expression.Operand.PathOperand;
import io.stator.expression.Operand.Size;
import io.stator.expression.Operand.ValueOperand;
import io.stator.value.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A hand-written recursive-descent parser for condition, projection and update expressions, one
 * instance per expression.
 *
 * <p>DynamoDB reports a syntax error as soon as the text does not fit the grammar, but reports
 * every other problem (undefined placeholders, reserved words, misused functions, operand types)
 * only once the whole expression has parsed, and then in a fixed order of kinds: a syntax error
 * later in the text wins over a reserved word earlier in it. So syntax errors throw at once, and
 * the other problems are recorded in {@link Problems} (the first of each kind) and thrown after
 * the parse.
 *
 * <p>Grammar, with DynamoDB's precedence NOT &gt; AND &gt; OR (keywords are case-insensitive,
 * function names are not):
 *
 * <pre>
 * condition  := or
 * or         := and ( OR and )*
 * and        := not ( AND not )*
 * not        := NOT not | primary
 * primary    := '(' condition ')'
 *             | function                                  -- a boolean function
 *             | operand comparator operand
 *             | operand BETWEEN operand AND operand
 *             | operand IN '(' operand ( ',' operand )* ')'
 * operand    := path | :value | size '(' path ')'
 * path       := ( name | #name ) ( '.' ( name | #name ) | '[' digits ']' )*
 * projection := path ( ',' path )*
 *
 * update     := clause+                  -- each of SET, REMOVE, ADD, DELETE at most once
 * clause     := SET set ( ',' set )* | REMOVE path ( ',' path )*
 *             | ADD path :value ( ',' path :value )* | DELETE path :value ( ',' ... )*
 * set        := path '=' value
 * value      := '(' value ')' | term ( ( '+' | '-' ) term )?
 * term       := '(' term ')' | if_not_exists '(' term ',' term ')'
 *             | list_append '(' term ',' term ')' | :value | path
 * </pre>
 */
final class Parser {
  /** DynamoDB: an expression string is at most 4 KB. */
  static final int MAX_EXPRESSION_BYTES = 4096;
  /** DynamoDB: a document path is at most 32 levels deep. */
  static final int MAX_PATH_DEPTH = 32;
  /** DynamoDB: IN takes at most 100 candidates. */
  static final int MAX_IN_CANDIDATES = 100;
  /**
   * Stator's guard on nested parentheses and NOT chains, so that no input can exhaust the stack.
   * DynamoDB documents no such limit; real expressions stay far below it.
   */
  static final int MAX_NESTING = 200;

  /** DynamoDB: an UpdateExpression holds at most 300 operators and functions. */
  static final int MAX_UPDATE_OPERATORS = 300;

  private static final String[] UPDATE_CLAUSES = {"SET", "REMOVE", "ADD", "DELETE"};
  private static final int SET = 0;
  private static final int REMOVE = 1;
  private static final int ADD = 2;

  private final Lexer lexer;
  private final ExpressionContext context;
  private final String parameterName;
  private final Problems problems = new Problems();
  private int pos;
  private int nesting;
  /** Arithmetic operators and function calls of an UpdateExpression, against its limit. */
  private int operators;
  /** The condition most recently returned from a parenthesised group, to spot "((...))". */
  private ConditionExpression lastGroup;

  private Parser(String text, ExpressionContext context, String parameterName) {
    this.lexer = new Lexer(text);
    this.context = context;
    this.parameterName = parameterName;
  }

  // ---- entry points --------------------------------------------------------------------------

  static ConditionExpression condition(String text, ExpressionContext context, String parameterName) {
    Parser parser = start(text, context, parameterName);
    ConditionExpression condition = parser.parseOr();
    parser.expectEnd();
    parser.problems.throwFirst(parser);
    return condition;
  }

  static List<Path> projection(String text, ExpressionContext context) {
    Parser parser = start(text, context, "ProjectionExpression");
    List<Path> paths = new ArrayList<>();
    paths.add(parser.parsePath());
    while (parser.kind() == Lexer.COMMA) {
      parser.pos++;
      paths.add(parser.parsePath());
    }
    parser.expectEnd();
    for (int i = 1; i < paths.size(); i++) {
      for (int j = 0; j < i; j++) {
        parser.checkOverlap(paths.get(j), paths.get(i));
      }
    }
    parser.problems.throwFirst(parser);
    return List.copyOf(paths);
  }

  private static Parser start(String text, ExpressionContext context, String parameterName) {
    if (text.isEmpty()) {
      throw invalid(parameterName, "The expression can not be empty;");
    }
    // A char is at most 3 UTF-8 bytes, so only long texts need their bytes counted.
    if (text.length() * 3L > MAX_EXPRESSION_BYTES) {
      int bytes = text.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > MAX_EXPRESSION_BYTES) {
        throw invalid(
            parameterName,
            "Expression size has exceeded the maximum allowed size; expression size: " + bytes);
      }
    }
    return new Parser(text, context, parameterName);
  }

  static DynamoDbException invalid(String parameterName, String detail) {
    return DynamoDbException.validation("Invalid " + parameterName + ": " + detail);
  }

  // ---- conditions ----------------------------------------------------------------------------

  private ConditionExpression parseOr() {
    ConditionExpression left = parseAnd();
    while (lexer.isKeyword(pos, "OR")) {
      pos++;
      left = new ConditionExpression.Or(left, parseAnd());
    }
    return left;
  }

  private ConditionExpression parseAnd() {
    ConditionExpression left = parseNot();
    while (lexer.isKeyword(pos, "AND")) {
      pos++;
      left = new ConditionExpression.And(left, parseNot());
    }
    return left;
  }

  private ConditionExpression parseNot() {
    if (lexer.isKeyword(pos, "NOT")) {
      pos++;
      enter();
      ConditionExpression operand = parseNot();
      nesting--;
      return new ConditionExpression.Not(operand);
    }
    return parsePrimary();
  }

  private ConditionExpression parsePrimary() {
    if (kind() == Lexer.LPAREN) {
      pos++;
      enter();
      ConditionExpression inner = parseOr();
      nesting--;
      expect(Lexer.RPAREN);
      if (inner == lastGroup) {
        problems.parens("The expression has redundant parentheses;");
      }
      lastGroup = inner;
      return inner;
    }
    if (kind() == Lexer.NAME && kindAt(pos + 1) == Lexer.LPAREN) {
      int nameToken = pos;
      String name = lexer.tokenText(pos);
      FunctionName function = booleanFunction(name);
      if (function != null && !startsComparison(afterCall(pos + 1))) {
        pos += 2;
        List<Operand> arguments = parseArguments();
        return checkFunction(function, arguments);
      }
      if (function == null && !name.equals("size")) {
        problems.unknownFunction("Invalid function name; function: " + name);
        if (!startsComparison(afterCall(pos + 1))) {
          pos += 2;
          parseArguments();
          return new ConditionExpression.Function(FunctionName.ATTRIBUTE_EXISTS, List.of());
        }
      }
      pos = nameToken;
    }
    Operand left = parseOperand();
    int operatorToken = pos;
    Comparator comparator = comparator(kind());
    if (comparator != null) {
      pos++;
      Operand right = parseOperand();
      checkDistinct(comparator.symbol(), left, right);
      if (comparator != Comparator.EQ && comparator != Comparator.NE) {
        checkOrderedOperands(comparator.symbol(), left, right);
      }
      return new ConditionExpression.Comparison(comparator, left, right);
    }
    if (lexer.isKeyword(pos, "BETWEEN")) {
      pos++;
      Operand low = parseOperand();
      if (!lexer.isKeyword(pos, "AND")) {
        throw syntaxError(pos);
      }
      pos++;
      Operand high = parseOperand();
      checkOrderedOperands("BETWEEN", left, low, high);
      checkBetween(low, high);
      return new ConditionExpression.Between(left, low, high);
    }
    if (lexer.isKeyword(pos, "IN")) {
      pos++;
      expect(Lexer.LPAREN);
      List<Operand> candidates = new ArrayList<>();
      candidates.add(parseOperand());
      while (kind() == Lexer.COMMA) {
        pos++;
        candidates.add(parseOperand());
      }
      expect(Lexer.RPAREN);
      if (candidates.size() > MAX_IN_CANDIDATES) {
        problems.operand(
            "The IN operator is provided with too many operands; number of operands: "
                + candidates.size());
      }
      return new ConditionExpression.In(left, candidates);
    }
    if (left instanceof Size && endsCondition(pos)) {
      // size(...) where a condition belongs parses, then fails as a misused function.
      problems.misusedFunction(
          "The function is not allowed to be used this way in an expression; function: size");
      return new ConditionExpression.Function(FunctionName.ATTRIBUTE_EXISTS, List.of(left));
    }
    throw syntaxError(operatorToken);
  }

  /** Parses {@code arg, arg, ...)} after a function's '('. */
  private List<Operand> parseArguments() {
    List<Operand> arguments = new ArrayList<>(2);
    if (kind() != Lexer.RPAREN) {
      arguments.add(parseOperand());
      while (kind() == Lexer.COMMA) {
        pos++;
        arguments.add(parseOperand());
      }
    }
    expect(Lexer.RPAREN);
    return arguments;
  }

  private Operand parseOperand() {
    int kind = kind();
    if (kind == Lexer.VALUE_PLACEHOLDER) {
      return parseValuePlaceholder();
    }
    if (kind == Lexer.NAME && kindAt(pos + 1) == Lexer.LPAREN) {
      String name = lexer.tokenText(pos);
      pos += 2;
      List<Operand> arguments = parseArguments();
      if (name.equals("size")) {
        return checkSize(arguments);
      }
      if (booleanFunction(name) != null) {
        problems.misusedFunction(
            "The function is not allowed to be used this way in an expression; function: "
                + name);
      } else {
        problems.unknownFunction("Invalid function name; function: " + name);
      }
      return new PathOperand(Path.of(name));
    }
    if (kind == Lexer.NAME && isConditionKeyword(pos)) {
      throw syntaxError(pos);
    }
    if (kind == Lexer.LPAREN) {
      pos++;
      enter();
      Operand inner = parseOperand();
      nesting--;
      expect(Lexer.RPAREN);
      problems.parens("The expression has redundant parentheses;");
      return inner;
    }
    return new PathOperand(parsePath());
  }

  private ValueOperand parseValuePlaceholder() {
    String placeholder = lexer.tokenText(pos);
    pos++;
    AttributeValue value = context.resolveValue(placeholder);
    if (value == null) {
      String message =
          "An expression attribute value used in expression is not defined; attribute value: "
              + placeholder;
      problems.undefined(message);
      problems.undefinedValue(message);
    }
    return new ValueOperand(placeholder, value);
  }

  // ---- document paths ------------------------------------------------------------------------

  Path parsePath() {
    List<Path.Element> elements = new ArrayList<>(4);
    elements.add(new Path.Name(parseName()));
    while (true) {
      int kind = kind();
      if (kind == Lexer.DOT) {
        pos++;
        elements.add(new Path.Name(parseName()));
      } else if (kind == Lexer.LBRACKET) {
        pos++;
        if (kind() != Lexer.NUMBER) {
          throw syntaxError(pos);
        }
        int index = parseIndex(pos);
        pos++;
        expect(Lexer.RBRACKET);
        elements.add(new Path.Index(index));
      } else {
        break;
      }
    }
    if (elements.size() - 1 > MAX_PATH_DEPTH) {
      problems.operand(
          "The document path has too many nesting levels; nesting levels: "
              + (elements.size() - 1));
    }
    return new Path(elements);
  }

  private String parseName() {
    int kind = kind();
    String text = lexer.tokenText(pos);
    if (kind == Lexer.NAME) {
      pos++;
      if (ReservedWords.contains(text)) {
        problems.reserved("Attribute name is a reserved keyword; reserved keyword: " + text);
      }
      return text;
    }
    if (kind == Lexer.NAME_PLACEHOLDER) {
      pos++;
      String name = context.resolveName(text);
      if (name == null) {
        String message =
            "An expression attribute name used in the document path is not defined; "
                + "attribute name: "
                + text;
        problems.undefined(message);
        problems.undefinedName(message);
        return text;
      }
      return name;
    }
    throw syntaxError(pos);
  }

  private int parseIndex(int token) {
    int value = 0;
    for (int i = lexer.starts[token]; i < lexer.ends[token]; i++) {
      int digit = lexer.text.charAt(i) - '0';
      if (value > (Integer.MAX_VALUE - digit) / 10) {
        throw syntaxError(token);
      }
      value = value * 10 + digit;
    }
    return value;
  }

  // ---- update expressions --------------------------------------------------------------------

  static UpdateExpression update(String text, ExpressionContext context) {
    Parser parser = start(text, context, "UpdateExpression");
    UpdateExpression update = parser.parseUpdate();
    parser.problems.throwFirstOfUpdate(parser);
    return update;
  }

  private UpdateExpression parseUpdate() {
    List<UpdateExpression.Action> actions = new ArrayList<>();
    boolean[] seen = new boolean[UPDATE_CLAUSES.length];
    do {
      int clause = updateClause(pos);
      if (clause < 0) {
        throw syntaxError(pos);
      }
      if (seen[clause]) {
        problems.section(
            "The \"" + UPDATE_CLAUSES[clause] + "\" section can only be used once in an update "
                + "expression;");
      }
      seen[clause] = true;
      pos++;
      actions.add(parseAction(clause));
      while (kind() == Lexer.COMMA) {
        pos++;
        actions.add(parseAction(clause));
      }
    } while (kind() != Lexer.EOF);
    for (int i = 1; i < actions.size(); i++) {
      for (int j = 0; j < i; j++) {
        checkOverlap(actions.get(j).path(), actions.get(i).path());
      }
    }
    if (operators > MAX_UPDATE_OPERATORS) {
      problems.operand(
          "The expression contains too many operators; operator count: " + operators
              + ", maximum: " + MAX_UPDATE_OPERATORS);
    }
    return new UpdateExpression(actions);
  }

  private UpdateExpression.Action parseAction(int clause) {
    Path path = parsePath();
    if (clause == SET) {
      expect(Lexer.EQ);
      return new UpdateExpression.Set(path, parseSetValue());
    }
    if (clause == REMOVE) {
      return new UpdateExpression.Remove(path);
    }
    if (kind() != Lexer.VALUE_PLACEHOLDER) {
      throw syntaxError(pos);
    }
    ValueOperand value = parseValuePlaceholder();
    checkAddOrDeleteOperand(UPDATE_CLAUSES[clause], value);
    return clause == ADD ? new UpdateExpression.Add(path, value) : new UpdateExpression.Delete(path, value);
  }

  /**
   * {@code value := '(' value ')' | term [ ('+' | '-') term ]}. A '(' may open the whole value,
   * {@code (a + b)}, or only its first term, {@code (a) + b}: the token after the matching ')'
   * tells which.
   */
  private SetValue parseSetValue() {
    if (kind() == Lexer.LPAREN && !isArithmetic(kindAt(afterCall(pos)))) {
      pos++;
      enter();
      SetValue inner = parseSetValue();
      nesting--;
      expect(Lexer.RPAREN);
      return inner;
    }
    SetValue left = parseTerm();
    int operator = kind();
    if (!isArithmetic(operator)) {
      return left;
    }
    pos++;
    operators++;
    SetValue right = parseTerm();
    String symbol = operator == Lexer.PLUS ? "+" : "-";
    for (SetValue operand : List.of(left, right)) {
      String type = immediateType(operand);
      if (type != null && !type.equals("N")) {
        problems.function(operandTypeMessage(symbol, type));
      }
    }
    return operator == Lexer.PLUS
        ? new SetValue.Plus(left, right)
        : new SetValue.Minus(left, right);
  }

  /** {@code term := '(' term ')' | function '(' term ( ',' term )* ')' | :value | path}. */
  private SetValue parseTerm() {
    int kind = kind();
    if (kind == Lexer.LPAREN) {
      pos++;
      enter();
      SetValue inner = parseTerm();
      nesting--;
      expect(Lexer.RPAREN);
      return inner;
    }
    if (kind == Lexer.VALUE_PLACEHOLDER) {
      return new SetValue.Term(parseValuePlaceholder());
    }
    if (kind == Lexer.NAME && kindAt(pos + 1) == Lexer.LPAREN) {
      return parseUpdateFunction();
    }
    return new SetValue.Term(new PathOperand(parsePath()));
  }

  private SetValue parseUpdateFunction() {
    String name = lexer.tokenText(pos);
    pos += 2;
    operators++;
    enter();
    List<SetValue> arguments = new ArrayList<>(2);
    if (kind() != Lexer.RPAREN) {
      arguments.add(parseTerm());
      while (kind() == Lexer.COMMA) {
        pos++;
        arguments.add(parseTerm());
      }
    }
    nesting--;
    expect(Lexer.RPAREN);
    SetValue unusable = new SetValue.Term(new PathOperand(Path.of(name)));
    // Function names are case-sensitive: "List_Append" is not a function.
    boolean ifNotExists = name.equals("if_not_exists");
    if (!ifNotExists && !name.equals("list_append")) {
      if (booleanFunction(name) != null || name.equals("size")) {
        problems.misusedFunction(
            "The function is not allowed in an update expression; function: " + name);
      } else {
        problems.unknownFunction("Invalid function name; function: " + name);
      }
      return unusable;
    }
    if (arguments.size() != 2) {
      problems.function(arityMessage(name, arguments.size()));
      return unusable;
    }
    if (ifNotExists) {
      if (arguments.get(0) instanceof SetValue.Term t && t.operand() instanceof PathOperand p) {
        return new SetValue.IfNotExists(p.path(), arguments.get(1));
      }
      problems.function(
          "Operator or function requires a document path; operator or function: " + name);
      return unusable;
    }
    for (SetValue argument : arguments) {
      String type = immediateType(argument);
      if (type != null && !type.equals("L")) {
        problems.function(operandTypeMessage(name, type));
      }
    }
    return new SetValue.ListAppend(arguments.get(0), arguments.get(1));
  }

  /**
   * ADD takes a number or a set, DELETE a set. DynamoDB names the offending type in words here
   * ("operand type: STRING"), unlike the type descriptors it uses for functions, and the set of
   * types it allows ("typeSet: ALLOWED_FOR_ADD_OPERAND"), as recorded against the service.
   */
  private void checkAddOrDeleteOperand(String clause, ValueOperand operand) {
    AttributeValue value = operand.value();
    if (value == null) {
      return;
    }
    String type = value.type();
    boolean allowed = type.equals("SS") || type.equals("NS") || type.equals("BS")
        || (type.equals("N") && clause.equals("ADD"));
    if (!allowed) {
      problems.updateOperand(
          "Incorrect operand type for operator or function; operator: " + clause
              + ", operand type: " + TypeNames.word(type) + ", typeSet: ALLOWED_FOR_" + clause
              + "_OPERAND");
    }
  }

  /** The type of a {@code :value} operand; null for anything only known when evaluated. */
  private static String immediateType(SetValue value) {
    return value instanceof SetValue.Term t
            && t.operand() instanceof ValueOperand v
            && v.value() != null
        ? v.value().type()
        : null;
  }

  private static boolean isArithmetic(int kind) {
    return kind == Lexer.PLUS || kind == Lexer.MINUS;
  }

  /** The clause keyword at {@code token} (case-insensitive), or -1. */
  private int updateClause(int token) {
    for (int i = 0; i < UPDATE_CLAUSES.length; i++) {
      if (lexer.isKeyword(token, UPDATE_CLAUSES[i])) {
        return i;
      }
    }
    return -1;
  }

  // ---- semantic checks -----------------------------------------------------------------------

  private ConditionExpression checkFunction(FunctionName function, List<Operand> arguments) {
    String name = function.text();
    int arity = function == FunctionName.ATTRIBUTE_EXISTS
        || function == FunctionName.ATTRIBUTE_NOT_EXISTS ? 1 : 2;
    if (arguments.size() != arity) {
      problems.operand(arityMessage(name, arguments.size()));
      return new ConditionExpression.Function(function, arguments);
    }
    if (arity == 2) {
      checkDistinct(name, arguments.get(0), arguments.get(1));
    }
    switch (function) {
      case ATTRIBUTE_EXISTS, ATTRIBUTE_NOT_EXISTS -> {
        if (!(arguments.get(0) instanceof PathOperand)) {
          problems.function(
              "Operator or function requires a document path; operator or function: " + name);
        }
      }
      case BEGINS_WITH -> {
        for (Operand argument : arguments) {
          String type = knownType(argument);
          if (type != null && !type.equals("S") && !type.equals("B")) {
            problems.function(operandTypeMessage(name, type));
          }
        }
      }
      case ATTRIBUTE_TYPE -> {
        String type = knownType(arguments.get(1));
        if (!"S".equals(type)) {
          problems.function(
              operandTypeMessage(name, type == null ? "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}" : type));
        } else if (arguments.get(1) instanceof ValueOperand v
            && !TypeNames.isValid(((AttributeValue.S) v.value()).value())) {
          problems.function(
              "Invalid attribute type name found; type: "
                  + ((AttributeValue.S) v.value()).value()
                  + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
        }
      }
      case CONTAINS -> {}
    }
    return new ConditionExpression.Function(function, arguments);
  }

  private Operand checkSize(List<Operand> arguments) {
    if (arguments.size() != 1) {
      problems.operand(arityMessage("size", arguments.size()));
    } else if (arguments.get(0) instanceof PathOperand p) {
      return new Size(p.path());
    } else {
      String type = knownType(arguments.get(0));
      problems.function(
          type != null && (type.equals("N") || type.equals("BOOL") || type.equals("NULL"))
              ? operandTypeMessage("size", type)
              : "Operator or function requires a document path; operator or function: size");
    }
    return new Size(Path.of("size"));
  }

  /** DynamoDB rejects {@code a = a}, {@code begins_with(a, a)} ...: the operands must differ. */
  private void checkDistinct(String operator, Operand first, Operand second) {
    if (first instanceof PathOperand a && second instanceof PathOperand b
        && a.path().equals(b.path())) {
      problems.distinct(
          "The first operand must be distinct from the remaining operands for this operator or "
              + "function; operator: "
              + operator
              + ", first operand: "
              + pathText(a.path()));
    }
  }

  /**
   * {@code <}, {@code <=}, {@code >}, {@code >=} and BETWEEN order strings, numbers and binaries
   * only: a constant of another type (a list, a map, a set, a boolean, a null) can never
   * compare, and DynamoDB refuses the expression. A value from the item is known only when the
   * condition is evaluated, where a wrong type just makes the condition false.
   */
  private void checkOrderedOperands(String operator, Operand... operands) {
    for (Operand operand : operands) {
      if (operand instanceof ValueOperand v && v.value() != null
          && !Evaluator.isOrdered(v.value())) {
        problems.function(operandTypeMessage(operator, v.value().type()));
        return;
      }
    }
  }

  /** With both bounds known, DynamoDB checks they have one type and are in order. */
  private void checkBetween(Operand low, Operand high) {
    if (low instanceof ValueOperand l && high instanceof ValueOperand h
        && l.value() != null && h.value() != null) {
      String bounds = "lower bound operand: AttributeValue: " + valueText(l.value())
          + ", upper bound operand: AttributeValue: " + valueText(h.value());
      if (!l.value().type().equals(h.value().type())) {
        problems.function(
            "The BETWEEN operator requires same data type for lower and upper bounds; " + bounds);
      } else if (Evaluator.isOrdered(l.value()) && Evaluator.compare(l.value(), h.value()) > 0) {
        problems.function(
            "The BETWEEN operator requires upper bound to be greater than or equal to lower "
                + "bound; "
                + bounds);
      }
    }
  }

  private static String knownType(Operand operand) {
    if (operand instanceof ValueOperand v) {
      return v.value() == null ? null : v.value().type();
    }
    return operand instanceof Size ? "N" : null;
  }

  private static String arityMessage(String name, int count) {
    return "Incorrect number of operands for operator or function; operator or function: "
        + name
        + ", number of operands: "
        + count;
  }

  private static String operandTypeMessage(String name, String type) {
    return "Incorrect operand type for operator or function; operator or function: "
        + name
        + ", operand type: "
        + type;
  }

  private static String valueText(AttributeValue value) {
    String text;
    if (value instanceof AttributeValue.S s) {
      text = s.value();
    } else if (value instanceof AttributeValue.N n) {
      text = n.value();
    } else if (value instanceof AttributeValue.B b) {
      text = b.value().toBase64();
    } else if (value instanceof AttributeValue.Bool b) {
      text = Boolean.toString(b.value());
    } else if (value instanceof AttributeValue.Null) {
      text = "true";
    } else {
      text = value.toString();
    }
    return "{" + value.type() + ":" + text + "}";
  }

  /** A path as DynamoDB prints it in messages: {@code a.b[2]} is {@code [a, b, [2]]}. */
  static String pathText(Path path) {
    StringBuilder sb = new StringBuilder("[");
    for (Path.Element element : path.elements()) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      if (element instanceof Path.Name n) {
        sb.append(n.name());
      } else {
        sb.append('[').append(((Path.Index) element).index()).append(']');
      }
    }
    return sb.append(']').toString();
  }

  /**
   * Projection paths may not overlap ({@code a} and {@code a.b}) nor conflict ({@code a.b} and
   * {@code a[0]}: one says a is a map, the other a list).
   */
  private void checkOverlap(Path first, Path second) {
    List<Path.Element> a = first.elements();
    List<Path.Element> b = second.elements();
    int common = Math.min(a.size(), b.size());
    for (int i = 0; i < common; i++) {
      if (a.get(i).getClass() != b.get(i).getClass()) {
        problems.conflict(
            "Two document paths conflict with each other; must remove or rewrite one of these "
                + "paths; path one: "
                + pathText(first)
                + ", path two: "
                + pathText(second));
        return;
      }
      if (!a.get(i).equals(b.get(i))) {
        return;
      }
    }
    problems.overlap(
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: "
            + pathText(first)
            + ", path two: "
            + pathText(second));
  }

  // ---- tokens --------------------------------------------------------------------------------

  private int kind() {
    return lexer.kinds[pos];
  }

  private int kindAt(int index) {
    return index < lexer.count ? lexer.kinds[index] : Lexer.EOF;
  }

  private void expect(int kind) {
    if (kind() != kind) {
      throw syntaxError(pos);
    }
    pos++;
  }

  private void expectEnd() {
    if (kind() != Lexer.EOF) {
      throw syntaxError(pos);
    }
  }

  private void enter() {
    if (++nesting > MAX_NESTING) {
      throw invalid(
          parameterName,
          "The expression has too many nested levels; nesting levels: " + nesting);
    }
  }

  private DynamoDbException syntaxError(int token) {
    return invalid(
        parameterName,
        "Syntax error; token: \"" + lexer.tokenText(token) + "\", near: \"" + lexer.near(token)
            + "\"");
  }

  private boolean isConditionKeyword(int token) {
    return lexer.isKeyword(token, "AND")
        || lexer.isKeyword(token, "OR")
        || lexer.isKeyword(token, "NOT")
        || lexer.isKeyword(token, "BETWEEN")
        || lexer.isKeyword(token, "IN");
  }

  /** Whether the token may follow a complete condition. */
  private boolean endsCondition(int token) {
    int kind = lexer.kinds[token];
    return kind == Lexer.EOF
        || kind == Lexer.RPAREN
        || lexer.isKeyword(token, "AND")
        || lexer.isKeyword(token, "OR");
  }

  /** Whether the token starts a comparison, BETWEEN or IN: the function call is an operand. */
  private boolean startsComparison(int token) {
    return token < lexer.count
        && (comparator(lexer.kinds[token]) != null
            || lexer.isKeyword(token, "BETWEEN")
            || lexer.isKeyword(token, "IN"));
  }

  /** The token after the call whose '(' is at {@code open}, skipping nested parentheses. */
  private int afterCall(int open) {
    int depth = 0;
    for (int i = open; i < lexer.count; i++) {
      int kind = lexer.kinds[i];
      if (kind == Lexer.LPAREN) {
        depth++;
      } else if (kind == Lexer.RPAREN && --depth == 0) {
        return i + 1;
      }
    }
    return lexer.count;
  }

  private static Comparator comparator(int kind) {
    return switch (kind) {
      case Lexer.EQ -> Comparator.EQ;
      case Lexer.NE -> Comparator.NE;
      case Lexer.LT -> Comparator.LT;
      case Lexer.LE -> Comparator.LE;
      case Lexer.GT -> Comparator.GT;
      case Lexer.GE -> Comparator.GE;
      default -> null;
    };
  }

  /** Function names are case-sensitive in DynamoDB: "Begins_With" is not a function. */
  private static FunctionName booleanFunction(String name) {
    for (FunctionName function : FunctionName.values()) {
      if (function.text().equals(name)) {
        return function;
      }
    }
    return null;
  }

  String parameterName() {
    return parameterName;
  }

  /**
   * The first problem of each kind, thrown after parsing in DynamoDB's order of kinds.
   */
  private static final class Problems {
    private String parens;
    private String unknownFunction;
    private String misusedFunction;
    private String reserved;
    private String undefined;
    private String operand;
    private String distinct;
    private String function;
    private String overlap;
    private String conflict;
    private String section;
    private String undefinedName;
    private String undefinedValue;
    private String updateOperand;

    void section(String message) {
      section = section == null ? message : section;
    }

    void undefinedName(String message) {
      undefinedName = undefinedName == null ? message : undefinedName;
    }

    void undefinedValue(String message) {
      undefinedValue = undefinedValue == null ? message : undefinedValue;
    }

    void updateOperand(String message) {
      updateOperand = updateOperand == null ? message : updateOperand;
    }

    void parens(String message) {
      parens = parens == null ? message : parens;
    }

    void unknownFunction(String message) {
      unknownFunction = unknownFunction == null ? message : unknownFunction;
    }

    void misusedFunction(String message) {
      misusedFunction = misusedFunction == null ? message : misusedFunction;
    }

    void reserved(String message) {
      reserved = reserved == null ? message : reserved;
    }

    void undefined(String message) {
      undefined = undefined == null ? message : undefined;
    }

    void operand(String message) {
      operand = operand == null ? message : operand;
    }

    void distinct(String message) {
      distinct = distinct == null ? message : distinct;
    }

    void function(String message) {
      function = function == null ? message : function;
    }

    void overlap(String message) {
      overlap = overlap == null ? message : overlap;
    }

    void conflict(String message) {
      conflict = conflict == null ? message : conflict;
    }

    void throwFirst(Parser parser) {
      throwFirst(
          parser,
          parens, unknownFunction, misusedFunction, reserved, undefined, operand, distinct,
          function, overlap, conflict);
    }

    /**
     * An UpdateExpression reports its problems in another order than a condition: reserved
     * words, function names, repeated sections, undefined names before values, overlapping and
     * conflicting paths, ADD/DELETE operand types, then function operands.
     */
    void throwFirstOfUpdate(Parser parser) {
      throwFirst(
          parser,
          reserved, unknownFunction, misusedFunction, section, undefinedName, undefinedValue,
          overlap, conflict, updateOperand, operand, function);
    }

    private static void throwFirst(Parser parser, String... messages) {
      for (String message : messages) {
        if (message != null) {
          throw invalid(parser.parameterName(), message);
        }
      }
    }
  }
}
