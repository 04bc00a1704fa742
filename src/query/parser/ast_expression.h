// Parsed expressions: the AST the parser produces and the binder consumes. Plain data with public
// members (like DuckDB's ParsedExpression): the parser fills them, later stages read them.
//
// Every node records its source span, so the engine can name an unaliased output column after the
// text the user wrote ("max(usage_user)"), and renders normalised SQL with ToString(): keywords
// upper case, identifiers folded/quoted as needed, minimal parentheses. Parsing ToString()'s
// output yields the same tree (the round-trip property the tests and the fuzz target check).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/base/check.h"

namespace gnomon::query {

class SelectNode;

// A range of the statement text: [offset, offset + length) in bytes.
struct SourceSpan {
  size_t offset = 0;
  size_t length = 0;
};

enum class ExpressionClass : uint8_t {
  kConstant,
  kColumnRef,
  kStar,         // * or t.* in a select list
  kFunction,     // any name; aggregates and window calls included
  kUnary,        // NOT, unary minus/plus
  kBinary,       // arithmetic, comparison, LIKE, ||
  kConjunction,  // AND / OR over two or more children (flattened)
  kIn,           // x [NOT] IN (list) / (subquery)
  kBetween,
  kIsNull,
  kCase,
  kCast,
  kSubquery,     // (SELECT ...) as a scalar, or EXISTS (SELECT ...)
  kColumnPosition,  // never parsed: the binder's expansion of * over a join (by position)
};

class ParsedExpression;
using ExprPtr = std::unique_ptr<ParsedExpression>;

// The parser rejects expressions whose tree is deeper than this, so recursive walks over the AST
// (ToString, Copy, destructors, the binder) have a bounded stack depth.
constexpr uint32_t kMaxExpressionDepth = 1000;

class ParsedExpression {
 public:
  explicit ParsedExpression(ExpressionClass cls) : expression_class(cls) {}
  virtual ~ParsedExpression() = default;
  ParsedExpression(const ParsedExpression&) = delete;
  ParsedExpression& operator=(const ParsedExpression&) = delete;

  // Normalised SQL for this expression, without its alias.
  virtual std::string ToString() const = 0;
  // A deep copy (span, alias and depth included).
  virtual ExprPtr Copy() const = 0;
  // Calls `fn` on each direct child expression, in source order. Subqueries are not expression
  // children (walk their SelectNode instead).
  virtual void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const {}

  template <typename T>
  const T& As() const {
    GNOMON_CHECK(expression_class == T::kClass);
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& As() {
    GNOMON_CHECK(expression_class == T::kClass);
    return static_cast<T&>(*this);
  }

  const ExpressionClass expression_class;
  SourceSpan span;
  std::string alias;   // "x" of `expr AS x` in a select list; empty when none was written
  uint32_t depth = 1;  // height of this subtree (a leaf is 1); set by the parser

 protected:
  // Copies span, alias and depth into `copy`, which Copy() implementations then return.
  ExprPtr FinishCopy(ExprPtr copy) const;
};

// Deep copies of `list`'s expressions, in order.
std::vector<ExprPtr> CopyExpressions(const std::vector<ExprPtr>& list);

// Quotes an identifier when it must be ("Hours Driven", "from"), else returns it as is.
std::string QuoteIdentifier(const std::string& name);
// 'it''s'.
std::string QuoteString(const std::string& value);

enum class ConstantKind : uint8_t { kNull, kBoolean, kInteger, kFloat, kString, kInterval };

class ConstantExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kConstant;
  ConstantExpression() : ParsedExpression(kClass) {}

  static std::unique_ptr<ConstantExpression> Null();
  static std::unique_ptr<ConstantExpression> Boolean(bool v);
  static std::unique_ptr<ConstantExpression> Integer(int64_t v);
  static std::unique_ptr<ConstantExpression> Float(double v);
  static std::unique_ptr<ConstantExpression> String(std::string v);
  static std::unique_ptr<ConstantExpression> Interval(int64_t nanos);

  std::string ToString() const override;
  ExprPtr Copy() const override;

  ConstantKind kind = ConstantKind::kNull;
  bool bool_value = false;
  int64_t int_value = 0;     // kInteger, and kInterval in nanoseconds
  double float_value = 0;
  std::string string_value;  // kString, unescaped; may hold a time literal for the binder
};

// A column name, optionally qualified: names = {"usage_user"} or {"t", "hostname"} (up to 3).
class ColumnRefExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kColumnRef;
  explicit ColumnRefExpression(std::vector<std::string> n)
      : ParsedExpression(kClass), names(std::move(n)) {}

  const std::string& column_name() const { return names.back(); }
  // The qualifier just before the column ("t" of t.hostname), or empty.
  std::string table_name() const { return names.size() > 1 ? names[names.size() - 2] : ""; }

  std::string ToString() const override;
  ExprPtr Copy() const override;

  std::vector<std::string> names;
};

// Column `index` of the FROM relation. `SELECT *` over a join expands to these, since the two
// sides may share a column name; prints as the name.
class ColumnPositionExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kColumnPosition;
  ColumnPositionExpression(int i, std::string n) : ParsedExpression(kClass), index(i), name(std::move(n)) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;

  int index;
  std::string name;
};

class StarExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kStar;
  explicit StarExpression(std::string rel = "") : ParsedExpression(kClass), relation(std::move(rel)) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;

  std::string relation;  // "t" of t.*; empty for *
};

enum class NullsOrder : uint8_t { kDefault, kFirst, kLast };

struct OrderByItem {
  ExprPtr expression;
  bool descending = false;
  NullsOrder nulls = NullsOrder::kDefault;

  std::string ToString() const;
  OrderByItem Copy() const;
};

// A window frame's bound: UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING,
// UNBOUNDED FOLLOWING (n an expression: a row count for ROWS, an offset of the ORDER BY key's
// type for RANGE, e.g. INTERVAL '10 minutes').
enum class FrameBoundKind : uint8_t { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
struct FrameBound {
  FrameBoundKind kind = FrameBoundKind::kCurrentRow;
  ExprPtr offset;  // kPreceding / kFollowing only

  std::string ToString() const;
  FrameBound Copy() const;
};

enum class FrameUnit : uint8_t { kRows, kRange, kGroups };
// ROWS | RANGE | GROUPS BETWEEN start AND end (a lone start means AND CURRENT ROW).
struct WindowFrame {
  FrameUnit unit = FrameUnit::kRange;
  FrameBound start;
  FrameBound end;

  std::string ToString() const;
  WindowFrame Copy() const;
};

// OVER ([base] [PARTITION BY ...] [ORDER BY ...] [frame]), or OVER name: `base` names a window
// of the query's WINDOW clause that this one refines (OVER w is OVER (w)).
struct WindowSpec {
  std::string base;
  std::vector<ExprPtr> partition_by;
  std::vector<OrderByItem> order_by;
  std::optional<WindowFrame> frame;

  std::string ToString() const;
  std::unique_ptr<WindowSpec> Copy() const;
};

// name(args): also count(*) (is_star), count(DISTINCT x), last_value(x ORDER BY time),
// percentile_cont(0.5) WITHIN GROUP (ORDER BY x) and
// window calls lead(x) OVER (...). Names are folded to lower case unless quoted; the binder
// decides which names exist and which are aggregates.
class FunctionExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kFunction;
  explicit FunctionExpression(std::string n) : ParsedExpression(kClass), name(std::move(n)) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  std::string name;
  std::vector<ExprPtr> children;
  bool is_star = false;   // f(*); children is empty
  bool distinct = false;  // f(DISTINCT ...)
  std::vector<OrderByItem> order_by;  // f(x ORDER BY y): ordered-set aggregates
  bool within_group = false;  // order_by came from f(p) WITHIN GROUP (ORDER BY x)
  std::unique_ptr<WindowSpec> window;  // non-null for f(...) OVER (...)
};

enum class UnaryOp : uint8_t { kNot, kNegate, kPlus };

class UnaryExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kUnary;
  UnaryExpression(UnaryOp o, ExprPtr c) : ParsedExpression(kClass), op(o), child(std::move(c)) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  UnaryOp op;
  ExprPtr child;
};

enum class BinaryOp : uint8_t {
  kAdd, kSubtract, kMultiply, kDivide, kModulo, kPower, kConcat,
  kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual,
  kLike, kNotLike, kILike, kNotILike,
};
// "+", "<=", "NOT LIKE", ...
const char* BinaryOpText(BinaryOp op);
bool IsComparison(BinaryOp op);
// The comparison with its operands swapped (a < b is b > a); other operators unchanged.
BinaryOp MirrorComparison(BinaryOp op);

class BinaryExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kBinary;
  BinaryExpression(BinaryOp o, ExprPtr l, ExprPtr r)
      : ParsedExpression(kClass), op(o), left(std::move(l)), right(std::move(r)) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  BinaryOp op;
  ExprPtr left;
  ExprPtr right;
};

enum class ConjunctionOp : uint8_t { kAnd, kOr };

// a AND b AND c: chains of one operator are flattened into one node (no deep trees for the long
// OR lists TSBS sends).
class ConjunctionExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kConjunction;
  explicit ConjunctionExpression(ConjunctionOp o) : ParsedExpression(kClass), op(o) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  ConjunctionOp op;
  std::vector<ExprPtr> children;  // two or more
};

// x [NOT] IN (a, b, ...) or x [NOT] IN (SELECT ...): exactly one of `list`/`subquery` is used.
class InExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kIn;
  InExpression();
  ~InExpression() override;

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  ExprPtr operand;
  std::vector<ExprPtr> list;
  std::unique_ptr<SelectNode> subquery;
  bool negated = false;
};

class BetweenExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kBetween;
  BetweenExpression() : ParsedExpression(kClass) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  ExprPtr input;
  ExprPtr lower;
  ExprPtr upper;
  bool negated = false;
};

class IsNullExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kIsNull;
  IsNullExpression(ExprPtr c, bool neg)
      : ParsedExpression(kClass), child(std::move(c)), negated(neg) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  ExprPtr child;
  bool negated = false;  // IS NOT NULL
};

struct CaseCheck {
  ExprPtr when;
  ExprPtr then;
};

// CASE [operand] WHEN ... THEN ... [ELSE ...] END. With an operand (simple CASE) each `when` is
// compared with it for equality; the parser keeps that form rather than rewriting it.
class CaseExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kCase;
  CaseExpression() : ParsedExpression(kClass) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  ExprPtr operand;  // may be null
  std::vector<CaseCheck> checks;
  ExprPtr else_expr;  // may be null (ELSE NULL)
};

// CAST(x AS type), x::type and typed literals (TIMESTAMP '...'). The type is kept as normalised
// text ("double precision", "varchar(10)", "timestamp with time zone"); the binder maps it.
class CastExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kCast;
  CastExpression(ExprPtr c, std::string type)
      : ParsedExpression(kClass), child(std::move(c)), type_name(std::move(type)) {}

  std::string ToString() const override;
  ExprPtr Copy() const override;
  void ForEachChild(const std::function<void(const ParsedExpression&)>& fn) const override;

  ExprPtr child;
  std::string type_name;
};

enum class SubqueryKind : uint8_t { kScalar, kExists };

class SubqueryExpression : public ParsedExpression {
 public:
  static constexpr ExpressionClass kClass = ExpressionClass::kSubquery;
  explicit SubqueryExpression(SubqueryKind k);
  ~SubqueryExpression() override;

  std::string ToString() const override;
  ExprPtr Copy() const override;

  SubqueryKind kind;
  std::unique_ptr<SelectNode> subquery;
};

// Precedence used for parsing and for parenthesising ToString output (higher binds tighter),
// following PostgreSQL: OR < AND < NOT < IS < comparison < IN/LIKE/BETWEEN < || < + - < * / %
// < ^ < unary minus < :: and primaries.
int ExpressionPrecedence(const ParsedExpression& e);
int BinaryOpPrecedence(BinaryOp op);

}  // namespace gnomon::query
