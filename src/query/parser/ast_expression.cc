#include "src/query/parser/ast_expression.h"

#include <charconv>
#include <cmath>

#include "src/query/parser/ast_select.h"
#include "src/query/parser/interval.h"
#include "src/query/parser/token.h"

namespace gnomon::query {
namespace {

enum Precedence : int {
  kPrecOr = 1,
  kPrecAnd = 2,
  kPrecNot = 3,
  kPrecIs = 4,
  kPrecComparison = 5,
  kPrecPredicate = 6,  // IN, LIKE, BETWEEN
  kPrecConcat = 7,
  kPrecAdditive = 8,
  kPrecMultiplicative = 9,
  kPrecPower = 10,
  kPrecUnary = 11,
  kPrecPrimary = 12,
};

// `child` rendered, in parentheses when it binds less tightly than `min_precedence`.
std::string Operand(const ParsedExpression& child, int min_precedence) {
  std::string s = child.ToString();
  if (ExpressionPrecedence(child) < min_precedence) return "(" + s + ")";
  return s;
}

std::string JoinExpressions(const std::vector<ExprPtr>& list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += ", ";
    out += list[i]->ToString();
  }
  return out;
}

std::string JoinOrderBy(const std::vector<OrderByItem>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i].ToString();
  }
  return out;
}

std::vector<OrderByItem> CopyOrderBy(const std::vector<OrderByItem>& items) {
  std::vector<OrderByItem> out;
  out.reserve(items.size());
  for (const OrderByItem& item : items) out.push_back(item.Copy());
  return out;
}

ExprPtr CopyOrNull(const ExprPtr& e) { return e ? e->Copy() : nullptr; }

}  // namespace

std::vector<ExprPtr> CopyExpressions(const std::vector<ExprPtr>& list) {
  std::vector<ExprPtr> out;
  out.reserve(list.size());
  for (const ExprPtr& e : list) out.push_back(e->Copy());
  return out;
}

ExprPtr ParsedExpression::FinishCopy(ExprPtr copy) const {
  copy->span = span;
  copy->alias = alias;
  copy->depth = depth;
  return copy;
}

std::string QuoteIdentifier(const std::string& name) {
  bool bare = !name.empty() && !IsReservedKeyword(name);
  for (size_t i = 0; bare && i < name.size(); ++i) {
    char c = name[i];
    bare = (c >= 'a' && c <= 'z') || c == '_' || (i > 0 && ((c >= '0' && c <= '9') || c == '$'));
  }
  if (bare) return name;
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string QuoteString(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

int BinaryOpPrecedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSubtract:
      return kPrecAdditive;
    case BinaryOp::kMultiply:
    case BinaryOp::kDivide:
    case BinaryOp::kModulo:
      return kPrecMultiplicative;
    case BinaryOp::kPower:
      return kPrecPower;
    case BinaryOp::kConcat:
      return kPrecConcat;
    case BinaryOp::kLike:
    case BinaryOp::kNotLike:
    case BinaryOp::kILike:
    case BinaryOp::kNotILike:
      return kPrecPredicate;
    default:
      return kPrecComparison;
  }
}

bool IsComparison(BinaryOp op) { return BinaryOpPrecedence(op) == kPrecComparison; }

BinaryOp MirrorComparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::kLess: return BinaryOp::kGreater;
    case BinaryOp::kLessEqual: return BinaryOp::kGreaterEqual;
    case BinaryOp::kGreater: return BinaryOp::kLess;
    case BinaryOp::kGreaterEqual: return BinaryOp::kLessEqual;
    default: return op;
  }
}

const char* BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSubtract: return "-";
    case BinaryOp::kMultiply: return "*";
    case BinaryOp::kDivide: return "/";
    case BinaryOp::kModulo: return "%";
    case BinaryOp::kPower: return "^";
    case BinaryOp::kConcat: return "||";
    case BinaryOp::kEqual: return "=";
    case BinaryOp::kNotEqual: return "<>";
    case BinaryOp::kLess: return "<";
    case BinaryOp::kLessEqual: return "<=";
    case BinaryOp::kGreater: return ">";
    case BinaryOp::kGreaterEqual: return ">=";
    case BinaryOp::kLike: return "LIKE";
    case BinaryOp::kNotLike: return "NOT LIKE";
    case BinaryOp::kILike: return "ILIKE";
    case BinaryOp::kNotILike: return "NOT ILIKE";
  }
  return "?";
}

int ExpressionPrecedence(const ParsedExpression& e) {
  switch (e.expression_class) {
    case ExpressionClass::kConjunction:
      return e.As<ConjunctionExpression>().op == ConjunctionOp::kOr ? kPrecOr : kPrecAnd;
    case ExpressionClass::kUnary:
      return e.As<UnaryExpression>().op == UnaryOp::kNot ? kPrecNot : kPrecUnary;
    case ExpressionClass::kIsNull:
      return kPrecIs;
    case ExpressionClass::kBinary:
      return BinaryOpPrecedence(e.As<BinaryExpression>().op);
    case ExpressionClass::kIn:
    case ExpressionClass::kBetween:
      return kPrecPredicate;
    case ExpressionClass::kConstant: {
      // A negative number renders with a leading minus, i.e. like a unary minus.
      const auto& c = e.As<ConstantExpression>();
      if ((c.kind == ConstantKind::kInteger && c.int_value < 0) ||
          (c.kind == ConstantKind::kFloat && std::signbit(c.float_value))) {
        return kPrecUnary;
      }
      return kPrecPrimary;
    }
    default:
      return kPrecPrimary;
  }
}

// ---- Constant

std::unique_ptr<ConstantExpression> ConstantExpression::Null() {
  return std::make_unique<ConstantExpression>();
}
std::unique_ptr<ConstantExpression> ConstantExpression::Boolean(bool v) {
  auto c = std::make_unique<ConstantExpression>();
  c->kind = ConstantKind::kBoolean;
  c->bool_value = v;
  return c;
}
std::unique_ptr<ConstantExpression> ConstantExpression::Integer(int64_t v) {
  auto c = std::make_unique<ConstantExpression>();
  c->kind = ConstantKind::kInteger;
  c->int_value = v;
  return c;
}
std::unique_ptr<ConstantExpression> ConstantExpression::Float(double v) {
  auto c = std::make_unique<ConstantExpression>();
  c->kind = ConstantKind::kFloat;
  c->float_value = v;
  return c;
}
std::unique_ptr<ConstantExpression> ConstantExpression::String(std::string v) {
  auto c = std::make_unique<ConstantExpression>();
  c->kind = ConstantKind::kString;
  c->string_value = std::move(v);
  return c;
}
std::unique_ptr<ConstantExpression> ConstantExpression::Interval(int64_t nanos) {
  auto c = std::make_unique<ConstantExpression>();
  c->kind = ConstantKind::kInterval;
  c->int_value = nanos;
  return c;
}

std::string ConstantExpression::ToString() const {
  switch (kind) {
    case ConstantKind::kNull:
      return "NULL";
    case ConstantKind::kBoolean:
      return bool_value ? "TRUE" : "FALSE";
    case ConstantKind::kInteger:
      return std::to_string(int_value);
    case ConstantKind::kFloat: {
      char buf[64];
      auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), float_value);
      std::string s(buf, ec == std::errc() ? end : buf);
      // Keep it a float literal when read back: 90 -> 90.0.
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
      return s;
    }
    case ConstantKind::kString:
      return QuoteString(string_value);
    case ConstantKind::kInterval:
      return "INTERVAL " + QuoteString(FormatInterval(int_value));
  }
  return "NULL";
}

ExprPtr ConstantExpression::Copy() const {
  auto c = std::make_unique<ConstantExpression>();
  c->kind = kind;
  c->bool_value = bool_value;
  c->int_value = int_value;
  c->float_value = float_value;
  c->string_value = string_value;
  return FinishCopy(std::move(c));
}

// ---- Column references and stars

std::string ColumnRefExpression::ToString() const {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += '.';
    out += QuoteIdentifier(names[i]);
  }
  return out;
}

ExprPtr ColumnRefExpression::Copy() const {
  return FinishCopy(std::make_unique<ColumnRefExpression>(names));
}

std::string ColumnPositionExpression::ToString() const { return QuoteIdentifier(name); }

ExprPtr ColumnPositionExpression::Copy() const {
  return FinishCopy(std::make_unique<ColumnPositionExpression>(index, name));
}

std::string StarExpression::ToString() const {
  return relation.empty() ? "*" : QuoteIdentifier(relation) + ".*";
}

ExprPtr StarExpression::Copy() const {
  return FinishCopy(std::make_unique<StarExpression>(relation));
}

// ---- ORDER BY items and windows

std::string OrderByItem::ToString() const {
  std::string out = expression->ToString();
  if (descending) out += " DESC";
  if (nulls == NullsOrder::kFirst) out += " NULLS FIRST";
  if (nulls == NullsOrder::kLast) out += " NULLS LAST";
  return out;
}

OrderByItem OrderByItem::Copy() const {
  return OrderByItem{expression->Copy(), descending, nulls};
}

std::string FrameBound::ToString() const {
  switch (kind) {
    case FrameBoundKind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case FrameBoundKind::kPreceding: return offset->ToString() + " PRECEDING";
    case FrameBoundKind::kCurrentRow: return "CURRENT ROW";
    case FrameBoundKind::kFollowing: return offset->ToString() + " FOLLOWING";
    case FrameBoundKind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "";
}

FrameBound FrameBound::Copy() const { return FrameBound{kind, offset ? offset->Copy() : nullptr}; }

std::string WindowFrame::ToString() const {
  const char* units = unit == FrameUnit::kRows ? "ROWS" : unit == FrameUnit::kRange ? "RANGE" : "GROUPS";
  return std::string(units) + " BETWEEN " + start.ToString() + " AND " + end.ToString();
}

WindowFrame WindowFrame::Copy() const { return WindowFrame{unit, start.Copy(), end.Copy()}; }

std::string WindowSpec::ToString() const {
  std::string out;
  auto part = [&out](const std::string& s) {
    if (!out.empty()) out += ' ';
    out += s;
  };
  if (!base.empty()) {
    // Words that open a window clause would read back as that clause, not as the name.
    const bool clause_word = base == "partition" || base == "order" || base == "rows" || base == "range" ||
                             base == "groups";
    part(clause_word ? "\"" + base + "\"" : QuoteIdentifier(base));
  }
  if (!partition_by.empty()) part("PARTITION BY " + JoinExpressions(partition_by));
  if (!order_by.empty()) part("ORDER BY " + JoinOrderBy(order_by));
  if (frame) part(frame->ToString());
  return out;
}

std::unique_ptr<WindowSpec> WindowSpec::Copy() const {
  auto w = std::make_unique<WindowSpec>();
  w->base = base;
  w->partition_by = CopyExpressions(partition_by);
  w->order_by = CopyOrderBy(order_by);
  if (frame) w->frame = frame->Copy();
  return w;
}

// ---- Functions

std::string FunctionExpression::ToString() const {
  std::string out = QuoteIdentifier(name) + "(";
  if (is_star) {
    out += '*';
  } else {
    if (distinct) out += "DISTINCT ";
    out += JoinExpressions(children);
    if (!order_by.empty() && !within_group) out += " ORDER BY " + JoinOrderBy(order_by);
  }
  out += ')';
  if (within_group) out += " WITHIN GROUP (ORDER BY " + JoinOrderBy(order_by) + ")";
  if (window) out += " OVER (" + window->ToString() + ")";
  return out;
}

ExprPtr FunctionExpression::Copy() const {
  auto f = std::make_unique<FunctionExpression>(name);
  f->children = CopyExpressions(children);
  f->is_star = is_star;
  f->distinct = distinct;
  f->order_by = CopyOrderBy(order_by);
  f->within_group = within_group;
  if (window) f->window = window->Copy();
  return FinishCopy(std::move(f));
}

void FunctionExpression::ForEachChild(
    const std::function<void(const ParsedExpression&)>& fn) const {
  for (const ExprPtr& c : children) fn(*c);
  for (const OrderByItem& o : order_by) fn(*o.expression);
  if (window) {
    for (const ExprPtr& p : window->partition_by) fn(*p);
    for (const OrderByItem& o : window->order_by) fn(*o.expression);
    if (window->frame && window->frame->start.offset) fn(*window->frame->start.offset);
    if (window->frame && window->frame->end.offset) fn(*window->frame->end.offset);
  }
}

// ---- Operators

std::string UnaryExpression::ToString() const {
  if (op == UnaryOp::kNot) return "NOT " + Operand(*child, kPrecNot);
  std::string inner = Operand(*child, kPrecUnary);
  // "- -1" must not render as "--1", which would start a comment. A space, not parentheses: each
  // pair of parentheses is a parse nesting level, so "-(-(-x))" for a long chain of signs could
  // exceed kMaxParseNesting where the input did not (found by sql_parser_fuzz).
  const bool sign_follows = !inner.empty() && (inner[0] == '-' || inner[0] == '+');
  return (op == UnaryOp::kNegate ? "-" : "+") + std::string(sign_follows ? " " : "") + inner;
}

ExprPtr UnaryExpression::Copy() const {
  return FinishCopy(std::make_unique<UnaryExpression>(op, child->Copy()));
}

void UnaryExpression::ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const {
  fn(*child);
}

std::string BinaryExpression::ToString() const {
  const int p = BinaryOpPrecedence(op);
  // Left-associative operators keep an equal-precedence left operand bare; comparisons and
  // LIKE are non-associative in the grammar, so both sides need to bind tighter.
  const bool non_assoc = p == kPrecComparison || p == kPrecPredicate;
  return Operand(*left, non_assoc ? p + 1 : p) + " " + BinaryOpText(op) + " " +
         Operand(*right, p + 1);
}

ExprPtr BinaryExpression::Copy() const {
  return FinishCopy(std::make_unique<BinaryExpression>(op, left->Copy(), right->Copy()));
}

void BinaryExpression::ForEachChild(
    const std::function<void(const ParsedExpression&)>& fn) const {
  fn(*left);
  fn(*right);
}

std::string ConjunctionExpression::ToString() const {
  const int p = op == ConjunctionOp::kOr ? kPrecOr : kPrecAnd;
  std::string out;
  for (size_t i = 0; i < children.size(); ++i) {
    if (i > 0) out += op == ConjunctionOp::kOr ? " OR " : " AND ";
    out += Operand(*children[i], p + 1);
  }
  return out;
}

ExprPtr ConjunctionExpression::Copy() const {
  auto c = std::make_unique<ConjunctionExpression>(op);
  c->children = CopyExpressions(children);
  return FinishCopy(std::move(c));
}

void ConjunctionExpression::ForEachChild(
    const std::function<void(const ParsedExpression&)>& fn) const {
  for (const ExprPtr& c : children) fn(*c);
}

// ---- Predicates

InExpression::InExpression() : ParsedExpression(kClass) {}
InExpression::~InExpression() = default;

std::string InExpression::ToString() const {
  std::string out = Operand(*operand, kPrecPredicate + 1);
  out += negated ? " NOT IN (" : " IN (";
  out += subquery ? subquery->ToString() : JoinExpressions(list);
  out += ')';
  return out;
}

ExprPtr InExpression::Copy() const {
  auto in = std::make_unique<InExpression>();
  in->operand = operand->Copy();
  in->list = CopyExpressions(list);
  if (subquery) in->subquery = subquery->Copy();
  in->negated = negated;
  return FinishCopy(std::move(in));
}

void InExpression::ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const {
  fn(*operand);
  for (const ExprPtr& e : list) fn(*e);
}

std::string BetweenExpression::ToString() const {
  return Operand(*input, kPrecPredicate + 1) + (negated ? " NOT BETWEEN " : " BETWEEN ") +
         Operand(*lower, kPrecConcat) + " AND " + Operand(*upper, kPrecConcat);
}

ExprPtr BetweenExpression::Copy() const {
  auto b = std::make_unique<BetweenExpression>();
  b->input = input->Copy();
  b->lower = lower->Copy();
  b->upper = upper->Copy();
  b->negated = negated;
  return FinishCopy(std::move(b));
}

void BetweenExpression::ForEachChild(
    const std::function<void(const ParsedExpression&)>& fn) const {
  fn(*input);
  fn(*lower);
  fn(*upper);
}

std::string IsNullExpression::ToString() const {
  return Operand(*child, kPrecIs + 1) + (negated ? " IS NOT NULL" : " IS NULL");
}

ExprPtr IsNullExpression::Copy() const {
  return FinishCopy(std::make_unique<IsNullExpression>(child->Copy(), negated));
}

void IsNullExpression::ForEachChild(
    const std::function<void(const ParsedExpression&)>& fn) const {
  fn(*child);
}

// ---- CASE, CAST, subqueries

std::string CaseExpression::ToString() const {
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on `" " + std::string&&`.
  std::string out = "CASE";
  if (operand) {
    out += ' ';
    out += operand->ToString();
  }
  for (const CaseCheck& c : checks) {
    out += " WHEN ";
    out += c.when->ToString();
    out += " THEN ";
    out += c.then->ToString();
  }
  if (else_expr) out += " ELSE " + else_expr->ToString();
  out += " END";
  return out;
}

ExprPtr CaseExpression::Copy() const {
  auto c = std::make_unique<CaseExpression>();
  c->operand = CopyOrNull(operand);
  for (const CaseCheck& check : checks) {
    c->checks.push_back(CaseCheck{check.when->Copy(), check.then->Copy()});
  }
  c->else_expr = CopyOrNull(else_expr);
  return FinishCopy(std::move(c));
}

void CaseExpression::ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const {
  if (operand) fn(*operand);
  for (const CaseCheck& c : checks) {
    fn(*c.when);
    fn(*c.then);
  }
  if (else_expr) fn(*else_expr);
}

std::string CastExpression::ToString() const {
  return "CAST(" + child->ToString() + " AS " + type_name + ")";
}

ExprPtr CastExpression::Copy() const {
  return FinishCopy(std::make_unique<CastExpression>(child->Copy(), type_name));
}

void CastExpression::ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const {
  fn(*child);
}

SubqueryExpression::SubqueryExpression(SubqueryKind k) : ParsedExpression(kClass), kind(k) {}
SubqueryExpression::~SubqueryExpression() = default;

std::string SubqueryExpression::ToString() const {
  return (kind == SubqueryKind::kExists ? "EXISTS (" : "(") + subquery->ToString() + ")";
}

ExprPtr SubqueryExpression::Copy() const {
  auto s = std::make_unique<SubqueryExpression>(kind);
  s->subquery = subquery->Copy();
  return FinishCopy(std::move(s));
}

}  // namespace gnomon::query
