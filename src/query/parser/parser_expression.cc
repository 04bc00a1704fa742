// Expressions, by precedence climbing from OR down to primaries (PostgreSQL's precedence).
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "src/query/parser/interval.h"
#include "src/query/parser/lexer.h"
#include "src/query/parser/parser_internal.h"

namespace gnomon::query::internal {
namespace {

bool ComparisonOp(TokenType t, BinaryOp* op) {
  switch (t) {
    case TokenType::kEq: *op = BinaryOp::kEqual; return true;
    case TokenType::kNotEq: *op = BinaryOp::kNotEqual; return true;
    case TokenType::kLt: *op = BinaryOp::kLess; return true;
    case TokenType::kLtEq: *op = BinaryOp::kLessEqual; return true;
    case TokenType::kGt: *op = BinaryOp::kGreater; return true;
    case TokenType::kGtEq: *op = BinaryOp::kGreaterEqual; return true;
    default: return false;
  }
}

bool IsIdentifierToken(const Token& t) {
  return t.type == TokenType::kQuotedIdentifier ||
         (t.type == TokenType::kIdentifier && !IsReservedKeyword(t.text));
}

std::string IdentifierText(const Token& t) {
  return t.type == TokenType::kQuotedIdentifier ? t.text : FoldIdentifier(t.text);
}

}  // namespace

Status Parser::Finish(ParsedExpression* e, size_t begin) {
  e->span = SourceSpan{begin, prev_end_ - begin};
  uint32_t depth = 0;
  e->ForEachChild([&](const ParsedExpression& child) { depth = std::max(depth, child.depth); });
  e->depth = depth + 1;
  if (e->depth > kMaxExpressionDepth) {
    return SyntaxError(sql_, begin, {},
                       "expression nested deeper than " + std::to_string(kMaxExpressionDepth) +
                           " levels");
  }
  return Status::OK();
}

Result<ExprPtr> Parser::ParseExpression() {
  NestingGuard guard(this);
  GNOMON_RETURN_IF_ERROR(guard.status());
  return ParseOr();
}

Result<std::vector<ExprPtr>> Parser::ParseExpressionList() {
  std::vector<ExprPtr> list;
  do {
    GNOMON_ASSIGN_OR_RETURN(ExprPtr e, ParseExpression());
    list.push_back(std::move(e));
  } while (Consume(TokenType::kComma));
  return list;
}

Result<ExprPtr> Parser::MakeConjunction(ConjunctionOp op, std::vector<ExprPtr> children,
                                        size_t begin) {
  auto conj = std::make_unique<ConjunctionExpression>(op);
  for (ExprPtr& child : children) {
    // Flatten a AND (b AND c): same operator, same meaning, shallower tree.
    if (child->expression_class == ExpressionClass::kConjunction &&
        child->As<ConjunctionExpression>().op == op && child->alias.empty()) {
      for (ExprPtr& grandchild : child->As<ConjunctionExpression>().children) {
        conj->children.push_back(std::move(grandchild));
      }
    } else {
      conj->children.push_back(std::move(child));
    }
  }
  GNOMON_RETURN_IF_ERROR(Finish(conj.get(), begin));
  return ExprPtr(std::move(conj));
}

Result<ExprPtr> Parser::ParseOr() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr first, ParseAnd());
  if (!PeekKeyword("OR")) return first;
  std::vector<ExprPtr> children;
  children.push_back(std::move(first));
  while (ConsumeKeyword("OR")) {
    GNOMON_ASSIGN_OR_RETURN(ExprPtr next, ParseAnd());
    children.push_back(std::move(next));
  }
  return MakeConjunction(ConjunctionOp::kOr, std::move(children), begin);
}

Result<ExprPtr> Parser::ParseAnd() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr first, ParseNot());
  if (!PeekKeyword("AND")) return first;
  std::vector<ExprPtr> children;
  children.push_back(std::move(first));
  while (ConsumeKeyword("AND")) {
    GNOMON_ASSIGN_OR_RETURN(ExprPtr next, ParseNot());
    children.push_back(std::move(next));
  }
  return MakeConjunction(ConjunctionOp::kAnd, std::move(children), begin);
}

Result<ExprPtr> Parser::ParseNot() {
  if (!PeekKeyword("NOT")) return ParseIs();
  NestingGuard guard(this);
  GNOMON_RETURN_IF_ERROR(guard.status());
  const size_t begin = start();
  Advance();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr child, ParseNot());
  auto e = std::make_unique<UnaryExpression>(UnaryOp::kNot, std::move(child));
  GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
  return ExprPtr(std::move(e));
}

Result<ExprPtr> Parser::ParseIs() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr e, ParseComparison());
  while (ConsumeKeyword("IS")) {
    const bool negated = ConsumeKeyword("NOT");
    if (!ConsumeKeyword("NULL")) return ErrorExpected(negated ? "NULL after IS NOT" : "NULL after IS");
    auto is = std::make_unique<IsNullExpression>(std::move(e), negated);
    GNOMON_RETURN_IF_ERROR(Finish(is.get(), begin));
    e = std::move(is);
  }
  return e;
}

Result<ExprPtr> Parser::ParseComparison() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr left, ParsePredicate());
  BinaryOp op;
  if (!ComparisonOp(Peek().type, &op)) return left;
  Advance();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr right, ParsePredicate());
  auto e = std::make_unique<BinaryExpression>(op, std::move(left), std::move(right));
  GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
  if (ComparisonOp(Peek().type, &op)) {
    return ErrorAt(Peek(), "comparison operators cannot be chained; use parentheses");
  }
  return ExprPtr(std::move(e));
}

Result<ExprPtr> Parser::ParsePredicate() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr left, ParseConcat());
  bool negated = false;
  if (PeekKeyword("NOT") && (PeekKeyword("IN", 1) || PeekKeyword("LIKE", 1) ||
                             PeekKeyword("ILIKE", 1) || PeekKeyword("BETWEEN", 1))) {
    Advance();
    negated = true;
  }
  if (ConsumeKeyword("IN")) {
    auto in = std::make_unique<InExpression>();
    in->operand = std::move(left);
    in->negated = negated;
    if (AtSelectStartAfterParen()) {
      GNOMON_ASSIGN_OR_RETURN(in->subquery, ParseSubqueryBody());
    } else {
      GNOMON_RETURN_IF_ERROR(Expect(TokenType::kLParen, "'(' after IN"));
      GNOMON_ASSIGN_OR_RETURN(in->list, ParseExpressionList());
      GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')' or ',' in the IN list"));
    }
    GNOMON_RETURN_IF_ERROR(Finish(in.get(), begin));
    return ExprPtr(std::move(in));
  }
  if (PeekKeyword("LIKE") || PeekKeyword("ILIKE")) {
    const bool ilike = PeekKeyword("ILIKE");
    Advance();
    GNOMON_ASSIGN_OR_RETURN(ExprPtr pattern, ParseConcat());
    BinaryOp op = ilike ? (negated ? BinaryOp::kNotILike : BinaryOp::kILike)
                        : (negated ? BinaryOp::kNotLike : BinaryOp::kLike);
    auto e = std::make_unique<BinaryExpression>(op, std::move(left), std::move(pattern));
    GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
    return ExprPtr(std::move(e));
  }
  if (ConsumeKeyword("BETWEEN")) {
    auto between = std::make_unique<BetweenExpression>();
    between->input = std::move(left);
    between->negated = negated;
    GNOMON_ASSIGN_OR_RETURN(between->lower, ParseConcat());
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("AND"));
    GNOMON_ASSIGN_OR_RETURN(between->upper, ParseConcat());
    GNOMON_RETURN_IF_ERROR(Finish(between.get(), begin));
    return ExprPtr(std::move(between));
  }
  return left;
}

Result<ExprPtr> Parser::ParseConcat() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
  while (PeekIs(TokenType::kConcat)) {
    Advance();
    GNOMON_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
    auto e = std::make_unique<BinaryExpression>(BinaryOp::kConcat, std::move(left), std::move(right));
    GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
    left = std::move(e);
  }
  return left;
}

Result<ExprPtr> Parser::ParseAdditive() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
  while (PeekIs(TokenType::kPlus) || PeekIs(TokenType::kMinus)) {
    const BinaryOp op = Advance().type == TokenType::kPlus ? BinaryOp::kAdd : BinaryOp::kSubtract;
    GNOMON_ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
    auto e = std::make_unique<BinaryExpression>(op, std::move(left), std::move(right));
    GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
    left = std::move(e);
  }
  return left;
}

Result<ExprPtr> Parser::ParseMultiplicative() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr left, ParsePower());
  while (PeekIs(TokenType::kStar) || PeekIs(TokenType::kSlash) || PeekIs(TokenType::kPercent)) {
    const TokenType t = Advance().type;
    const BinaryOp op = t == TokenType::kStar    ? BinaryOp::kMultiply
                        : t == TokenType::kSlash ? BinaryOp::kDivide
                                                 : BinaryOp::kModulo;
    GNOMON_ASSIGN_OR_RETURN(ExprPtr right, ParsePower());
    auto e = std::make_unique<BinaryExpression>(op, std::move(left), std::move(right));
    GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
    left = std::move(e);
  }
  return left;
}

Result<ExprPtr> Parser::ParsePower() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  while (PeekIs(TokenType::kCaret)) {
    Advance();
    GNOMON_ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
    auto e = std::make_unique<BinaryExpression>(BinaryOp::kPower, std::move(left), std::move(right));
    GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
    left = std::move(e);
  }
  return left;
}

Result<ExprPtr> Parser::ParseUnary() {
  if (!PeekIs(TokenType::kMinus) && !PeekIs(TokenType::kPlus)) return ParsePostfix();
  NestingGuard guard(this);
  GNOMON_RETURN_IF_ERROR(guard.status());
  const size_t begin = start();
  const bool minus = Advance().type == TokenType::kMinus;
  // Fold -5 and -1.5 into constants (so -9223372036854775808 is an integer), unless a cast
  // follows: -1::text is -(1::text) in PostgreSQL.
  const Token& next = Peek();
  if (minus && (next.type == TokenType::kInteger || next.type == TokenType::kFloat) &&
      !PeekIs(TokenType::kDoubleColon, 1)) {
    Advance();
    return ParseNumber(next, /*negative=*/true, begin);
  }
  GNOMON_ASSIGN_OR_RETURN(ExprPtr child, ParseUnary());
  auto e = std::make_unique<UnaryExpression>(minus ? UnaryOp::kNegate : UnaryOp::kPlus,
                                             std::move(child));
  GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
  return ExprPtr(std::move(e));
}

Result<ExprPtr> Parser::ParsePostfix() {
  const size_t begin = start();
  GNOMON_ASSIGN_OR_RETURN(ExprPtr e, ParsePrimary());
  while (Consume(TokenType::kDoubleColon)) {
    GNOMON_ASSIGN_OR_RETURN(std::string type, ParseTypeName());
    auto cast = std::make_unique<CastExpression>(std::move(e), std::move(type));
    GNOMON_RETURN_IF_ERROR(Finish(cast.get(), begin));
    e = std::move(cast);
  }
  return e;
}

Result<ExprPtr> Parser::ParseNumber(const Token& token, bool negative, size_t begin) {
  // `token` has been consumed.
  const std::string text = (negative ? "-" : "") + token.text;
  std::unique_ptr<ConstantExpression> c;
  int64_t i = 0;
  if (token.type == TokenType::kInteger) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
    if (ec == std::errc() && ptr == text.data() + text.size()) c = ConstantExpression::Integer(i);
  }
  if (!c) {  // a float, or an integer too large for int64 (PostgreSQL makes it numeric)
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(d)) {
      return ErrorAt(token, "numeric literal out of range");
    }
    c = ConstantExpression::Float(d);
  }
  GNOMON_RETURN_IF_ERROR(Finish(c.get(), begin));
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& t = Peek();
  const size_t begin = t.offset;
  switch (t.type) {
    case TokenType::kInteger:
    case TokenType::kFloat:
      Advance();
      return ParseNumber(t, /*negative=*/false, begin);
    case TokenType::kString: {
      auto c = ConstantExpression::String(Advance().text);
      GNOMON_RETURN_IF_ERROR(Finish(c.get(), begin));
      return ExprPtr(std::move(c));
    }
    case TokenType::kDuration: {
      auto nanos = ParseInterval(t.text);
      if (!nanos.ok()) return ErrorAt(t, nanos.status().message());
      Advance();
      auto c = ConstantExpression::Interval(*nanos);
      GNOMON_RETURN_IF_ERROR(Finish(c.get(), begin));
      return ExprPtr(std::move(c));
    }
    case TokenType::kLParen:
      return ParseParenthesized();
    case TokenType::kQuotedIdentifier:
      return ParseNameOrCall();
    case TokenType::kIdentifier:
      break;
    default:
      return ErrorExpected("an expression");
  }
  if (PeekKeyword("NULL") || PeekKeyword("TRUE") || PeekKeyword("FALSE")) {
    auto c = PeekKeyword("NULL") ? ConstantExpression::Null()
                                 : ConstantExpression::Boolean(PeekKeyword("TRUE"));
    Advance();
    GNOMON_RETURN_IF_ERROR(Finish(c.get(), begin));
    return ExprPtr(std::move(c));
  }
  if (PeekKeyword("CASE")) return ParseCase();
  if (PeekKeyword("CAST")) return ParseCast();
  if (PeekKeyword("EXISTS")) {
    Advance();
    if (!AtSelectStartAfterParen()) return ErrorExpected("'(SELECT' after EXISTS");
    auto e = std::make_unique<SubqueryExpression>(SubqueryKind::kExists);
    GNOMON_ASSIGN_OR_RETURN(e->subquery, ParseSubqueryBody());
    GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
    return ExprPtr(std::move(e));
  }
  if (PeekKeyword("INTERVAL") && PeekIs(TokenType::kString, 1)) return ParseIntervalLiteral();
  // Typed literals: TIMESTAMP '2023-06-11 00:00:00', DATE '2023-06-11'.
  if ((PeekKeyword("TIMESTAMP") || PeekKeyword("TIMESTAMPTZ") || PeekKeyword("DATE")) &&
      PeekIs(TokenType::kString, 1)) {
    std::string type = FoldIdentifier(Advance().text);
    const Token& literal = Peek();
    const size_t literal_begin = literal.offset;
    auto value = ConstantExpression::String(Advance().text);
    GNOMON_RETURN_IF_ERROR(Finish(value.get(), literal_begin));
    auto cast = std::make_unique<CastExpression>(std::move(value), std::move(type));
    GNOMON_RETURN_IF_ERROR(Finish(cast.get(), begin));
    return ExprPtr(std::move(cast));
  }
  // SQL's parameterless "functions".
  for (std::string_view name : {"CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME",
                                "LOCALTIMESTAMP", "LOCALTIME"}) {
    if (PeekKeyword(name) && !PeekIs(TokenType::kLParen, 1)) {
      auto f = std::make_unique<FunctionExpression>(FoldIdentifier(Advance().text));
      GNOMON_RETURN_IF_ERROR(Finish(f.get(), begin));
      return ExprPtr(std::move(f));
    }
  }
  if (IsReservedKeyword(t.text)) return ErrorExpected("an expression");
  return ParseNameOrCall();
}

Result<ExprPtr> Parser::ParseNameOrCall() {
  const size_t begin = start();
  std::vector<std::string> names;
  names.push_back(IdentifierText(Advance()));
  if (PeekIs(TokenType::kLParen)) return ParseFunctionCall(std::move(names[0]), begin);
  while (PeekIs(TokenType::kDot)) {
    if (PeekIs(TokenType::kStar, 1)) {
      return ErrorAt(Peek(1), "'" + names.back() + ".*' is only allowed in a select list");
    }
    Advance();
    if (!IsIdentifierToken(Peek())) return ErrorExpected("a column name after '.'");
    if (names.size() == 3) return ErrorAt(Peek(), "too many dots in a column name");
    names.push_back(IdentifierText(Advance()));
  }
  auto column = std::make_unique<ColumnRefExpression>(std::move(names));
  GNOMON_RETURN_IF_ERROR(Finish(column.get(), begin));
  return ExprPtr(std::move(column));
}

Result<ExprPtr> Parser::ParseFunctionCall(std::string name, size_t begin) {
  Advance();  // (
  if (name == "extract") return ParseExtract(begin);
  auto f = std::make_unique<FunctionExpression>(std::move(name));
  if (PeekIs(TokenType::kStar) && PeekIs(TokenType::kRParen, 1)) {
    Advance();
    f->is_star = true;
  } else if (!PeekIs(TokenType::kRParen)) {
    if (ConsumeKeyword("DISTINCT")) {
      f->distinct = true;
    } else {
      ConsumeKeyword("ALL");
    }
    GNOMON_ASSIGN_OR_RETURN(f->children, ParseExpressionList());
    if (PeekKeyword("ORDER")) {
      Advance();
      GNOMON_RETURN_IF_ERROR(ExpectKeyword("BY"));
      GNOMON_ASSIGN_OR_RETURN(f->order_by, ParseOrderByList());
    }
  }
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')' to close " + f->name + "("));
  if (PeekKeyword("WITHIN") && PeekKeyword("GROUP", 1)) {
    Advance();
    if (!f->order_by.empty()) return ErrorAt(Peek(), "ORDER BY both inside " + f->name + "() and in WITHIN GROUP");
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("GROUP"));
    GNOMON_RETURN_IF_ERROR(Expect(TokenType::kLParen, "'(' after WITHIN GROUP"));
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("ORDER"));
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("BY"));
    GNOMON_ASSIGN_OR_RETURN(f->order_by, ParseOrderByList());
    GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')' to close WITHIN GROUP ("));
    f->within_group = true;
  }
  if (PeekKeyword("FILTER")) return ErrorAt(Peek(), "aggregate FILTER is not supported");
  if (ConsumeKeyword("OVER")) {
    GNOMON_ASSIGN_OR_RETURN(f->window, ParseOver());
  }
  GNOMON_RETURN_IF_ERROR(Finish(f.get(), begin));
  return ExprPtr(std::move(f));
}

// EXTRACT(field FROM expr), after "extract(": the same call as date_part('field', expr).
Result<ExprPtr> Parser::ParseExtract(size_t begin) {
  auto f = std::make_unique<FunctionExpression>("date_part");
  std::string field;
  if (PeekIs(TokenType::kString)) {
    field = Advance().text;
  } else if (Peek().type == TokenType::kIdentifier) {
    field = FoldIdentifier(Advance().text);
  } else {
    return ErrorExpected("a field name (year, month, day, hour, minute, second, epoch, ...) after EXTRACT(");
  }
  GNOMON_RETURN_IF_ERROR(ExpectKeyword("FROM"));
  f->children.push_back(ConstantExpression::String(field));
  GNOMON_ASSIGN_OR_RETURN(ExprPtr from, ParseExpression());
  f->children.push_back(std::move(from));
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')' to close EXTRACT("));
  GNOMON_RETURN_IF_ERROR(Finish(f.get(), begin));
  return ExprPtr(std::move(f));
}

// OVER name, or OVER ([base] [PARTITION BY ...] [ORDER BY ...] [frame]).
Result<std::unique_ptr<WindowSpec>> Parser::ParseOver() {
  if (PeekIs(TokenType::kLParen)) return ParseWindow();
  auto window = std::make_unique<WindowSpec>();
  GNOMON_ASSIGN_OR_RETURN(window->base, ParseIdentifier("a window name or '(' after OVER"));
  return window;
}

Result<std::unique_ptr<WindowSpec>> Parser::ParseWindow() {
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kLParen, "'(' to open a window"));
  auto window = std::make_unique<WindowSpec>();
  const bool bare_name = Peek().type == TokenType::kIdentifier && !PeekKeyword("PARTITION") &&
                         !PeekKeyword("ORDER") && !PeekKeyword("ROWS") && !PeekKeyword("RANGE") &&
                         !PeekKeyword("GROUPS");
  if (bare_name || Peek().type == TokenType::kQuotedIdentifier) {
    GNOMON_ASSIGN_OR_RETURN(window->base, ParseIdentifier("window name"));
  }
  if (ConsumeKeyword("PARTITION")) {
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("BY"));
    GNOMON_ASSIGN_OR_RETURN(window->partition_by, ParseExpressionList());
  }
  if (PeekKeyword("ORDER")) {
    Advance();
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("BY"));
    GNOMON_ASSIGN_OR_RETURN(window->order_by, ParseOrderByList());
  }
  if (PeekKeyword("ROWS") || PeekKeyword("RANGE") || PeekKeyword("GROUPS")) {
    GNOMON_ASSIGN_OR_RETURN(window->frame, ParseWindowFrame());
  }
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')' to close the window"));
  return window;
}

Result<WindowFrame> Parser::ParseWindowFrame() {
  WindowFrame frame;
  frame.unit = ConsumeKeyword("ROWS") ? FrameUnit::kRows : ConsumeKeyword("RANGE") ? FrameUnit::kRange : FrameUnit::kGroups;
  if (frame.unit == FrameUnit::kGroups) Advance();  // GROUPS
  if (ConsumeKeyword("BETWEEN")) {
    GNOMON_ASSIGN_OR_RETURN(frame.start, ParseFrameBound());
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("AND"));
    GNOMON_ASSIGN_OR_RETURN(frame.end, ParseFrameBound());
  } else {
    GNOMON_ASSIGN_OR_RETURN(frame.start, ParseFrameBound());
    frame.end.kind = FrameBoundKind::kCurrentRow;
  }
  if (PeekKeyword("EXCLUDE")) return ErrorAt(Peek(), "EXCLUDE in window frames is not supported");
  // PostgreSQL's rules: a frame cannot start after its end's kind allows.
  if (frame.start.kind == FrameBoundKind::kUnboundedFollowing) {
    return ErrorAt(Peek(), "a window frame cannot start at UNBOUNDED FOLLOWING");
  }
  if (frame.end.kind == FrameBoundKind::kUnboundedPreceding) {
    return ErrorAt(Peek(), "a window frame cannot end at UNBOUNDED PRECEDING");
  }
  if (static_cast<int>(frame.end.kind) < static_cast<int>(frame.start.kind) &&
      frame.start.kind != FrameBoundKind::kUnboundedPreceding) {
    return ErrorAt(Peek(), "a window frame starting at " + frame.start.ToString() + " cannot end at " +
                               frame.end.ToString());
  }
  return frame;
}

Result<FrameBound> Parser::ParseFrameBound() {
  FrameBound b;
  if (ConsumeKeyword("UNBOUNDED")) {
    if (ConsumeKeyword("PRECEDING")) {
      b.kind = FrameBoundKind::kUnboundedPreceding;
    } else {
      GNOMON_RETURN_IF_ERROR(ExpectKeyword("FOLLOWING"));
      b.kind = FrameBoundKind::kUnboundedFollowing;
    }
    return b;
  }
  if (ConsumeKeyword("CURRENT")) {
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("ROW"));
    b.kind = FrameBoundKind::kCurrentRow;
    return b;
  }
  GNOMON_ASSIGN_OR_RETURN(b.offset, ParseExpression());
  if (ConsumeKeyword("PRECEDING")) {
    b.kind = FrameBoundKind::kPreceding;
  } else {
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("FOLLOWING"));
    b.kind = FrameBoundKind::kFollowing;
  }
  return b;
}

Result<ExprPtr> Parser::ParseCase() {
  const size_t begin = start();
  Advance();  // CASE
  auto c = std::make_unique<CaseExpression>();
  if (!PeekKeyword("WHEN")) {
    GNOMON_ASSIGN_OR_RETURN(c->operand, ParseExpression());
  }
  while (ConsumeKeyword("WHEN")) {
    CaseCheck check;
    GNOMON_ASSIGN_OR_RETURN(check.when, ParseExpression());
    GNOMON_RETURN_IF_ERROR(ExpectKeyword("THEN"));
    GNOMON_ASSIGN_OR_RETURN(check.then, ParseExpression());
    c->checks.push_back(std::move(check));
  }
  if (c->checks.empty()) return ErrorExpected("WHEN");
  if (ConsumeKeyword("ELSE")) {
    GNOMON_ASSIGN_OR_RETURN(c->else_expr, ParseExpression());
  }
  GNOMON_RETURN_IF_ERROR(ExpectKeyword("END"));
  GNOMON_RETURN_IF_ERROR(Finish(c.get(), begin));
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::ParseCast() {
  const size_t begin = start();
  Advance();  // CAST
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kLParen, "'(' after CAST"));
  GNOMON_ASSIGN_OR_RETURN(ExprPtr child, ParseExpression());
  GNOMON_RETURN_IF_ERROR(ExpectKeyword("AS"));
  GNOMON_ASSIGN_OR_RETURN(std::string type, ParseTypeName());
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')' to close CAST("));
  auto cast = std::make_unique<CastExpression>(std::move(child), std::move(type));
  GNOMON_RETURN_IF_ERROR(Finish(cast.get(), begin));
  return ExprPtr(std::move(cast));
}

Result<ExprPtr> Parser::ParseIntervalLiteral() {
  const size_t begin = start();
  Advance();  // INTERVAL
  const Token& literal = Advance();
  std::string text = literal.text;
  // INTERVAL '1' HOUR: the unit after the string applies to a bare number.
  static constexpr std::string_view kUnits[] = {"SECOND", "MINUTE", "HOUR", "DAY", "WEEK",
                                                "SECONDS", "MINUTES", "HOURS", "DAYS", "WEEKS"};
  for (std::string_view unit : kUnits) {
    if (PeekKeyword(unit)) {
      text += " " + FoldIdentifier(Advance().text);
      break;
    }
  }
  auto nanos = ParseInterval(text);
  if (!nanos.ok()) return ErrorAt(literal, nanos.status().message());
  auto c = ConstantExpression::Interval(*nanos);
  GNOMON_RETURN_IF_ERROR(Finish(c.get(), begin));
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::ParseParenthesized() {
  const size_t begin = start();
  if (AtSelectStartAfterParen()) {
    auto e = std::make_unique<SubqueryExpression>(SubqueryKind::kScalar);
    GNOMON_ASSIGN_OR_RETURN(e->subquery, ParseSubqueryBody());
    GNOMON_RETURN_IF_ERROR(Finish(e.get(), begin));
    return ExprPtr(std::move(e));
  }
  Advance();  // (
  GNOMON_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpression());
  if (PeekIs(TokenType::kComma)) return ErrorAt(Peek(), "row constructors are not supported");
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')'"));
  // The span keeps the parentheses, so an output column is named as written: "(a + b)".
  inner->span = SourceSpan{begin, prev_end_ - begin};
  return inner;
}

Result<std::unique_ptr<SelectNode>> Parser::ParseSubqueryBody() {
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kLParen, "'('"));
  GNOMON_ASSIGN_OR_RETURN(std::unique_ptr<SelectNode> node, ParseSelect());
  GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')' to close the subquery"));
  return node;
}

Result<std::string> Parser::ParseTypeName() {
  const Token& t = Peek();
  if (!IsIdentifierToken(t)) return ErrorExpected("a type name");
  std::string type = QuoteIdentifier(IdentifierText(Advance()));
  if (type == "double" && ConsumeKeyword("PRECISION")) {
    type = "double precision";
  } else if ((type == "character" || type == "char") && ConsumeKeyword("VARYING")) {
    type = "character varying";
  } else if ((type == "timestamp" || type == "time") &&
             (PeekKeyword("WITH") || PeekKeyword("WITHOUT")) && PeekKeyword("TIME", 1) &&
             PeekKeyword("ZONE", 2)) {
    type += PeekKeyword("WITH") ? " with time zone" : " without time zone";
    Advance();
    Advance();
    Advance();
  }
  if (Consume(TokenType::kLParen)) {
    type += '(';
    do {
      if (!PeekIs(TokenType::kInteger)) return ErrorExpected("an integer type modifier");
      if (type.back() != '(') type += ", ";
      type += Advance().text;
    } while (Consume(TokenType::kComma));
    GNOMON_RETURN_IF_ERROR(Expect(TokenType::kRParen, "')'"));
    type += ')';
  }
  return type;
}

}  // namespace gnomon::query::internal
