#include "src/query/binder/expression_binder.h"

#include <algorithm>
#include <cctype>

#include "src/base/ascii.h"
#include "src/query/execution/basic_operators.h"
#include "src/query/function/scalar_functions.h"
#include "src/query/parser/interval.h"
#include "src/query/parser/time_literal.h"

namespace gnomon::query {
namespace {

Status Unsupported(const ParsedExpression& e, const std::string& what) {
  return Status::InvalidArgument(what + " is not supported: " + e.ToString());
}

// A string constant compared with a timestamp is a time literal.
Status CoerceToTimestamp(BoundExpr* e) {
  if (e->kind != BoundKind::kConstant) return Status::OK();
  if (e->constant.type == ValueType::kString) {
    GNOMON_ASSIGN_OR_RETURN(int64_t ns, ParseTimeLiteral(e->constant.s));
    e->constant = Value::Timestamp(ns);
    e->type = ValueType::kTimestamp;
  } else if (e->constant.type == ValueType::kInt64) {
    e->constant.type = ValueType::kTimestamp;
    e->type = ValueType::kTimestamp;
  }
  return Status::OK();
}

Result<ValueType> CastTarget(const std::string& type_name) {
  std::string t = AsciiLower(type_name);
  auto starts = [&](const char* p) { return t.rfind(p, 0) == 0; };
  if (starts("timestamp")) return ValueType::kTimestamp;
  if (t == "int" || t == "integer" || t == "bigint" || t == "int8" || t == "int4" || t == "int2" ||
      t == "smallint") {
    return ValueType::kInt64;
  }
  if (starts("double") || t == "float" || t == "float8" || t == "float4" || t == "real" ||
      starts("numeric") || starts("decimal")) {
    return ValueType::kFloat64;
  }
  if (t == "text" || starts("varchar") || starts("char") || t == "string" ||
      starts("character")) {
    return ValueType::kString;
  }
  if (t == "bool" || t == "boolean") return ValueType::kBool;
  if (t == "ubigint" || t == "uint64") return ValueType::kUInt64;
  if (t == "interval") return ValueType::kInt64;
  return Status::InvalidArgument("unknown type in cast: " + type_name);
}

class Binder {
 public:
  explicit Binder(const BindContext& ctx) : ctx_(ctx) {}

  Result<BoundExprPtr> Bind(const ParsedExpression& e) {
    if (!ctx_.computed.empty()) {
      auto it = ctx_.computed.find(e.ToString());
      if (it != ctx_.computed.end()) {
        return MakeColumnRef(it->second, ctx_.columns[it->second].type);
      }
    }
    switch (e.expression_class) {
      case ExpressionClass::kConstant: return BindConstant(e.As<ConstantExpression>());
      case ExpressionClass::kColumnRef: return BindColumn(e.As<ColumnRefExpression>());
      case ExpressionClass::kFunction: return BindFunction(e.As<FunctionExpression>());
      case ExpressionClass::kUnary: return BindUnary(e.As<UnaryExpression>());
      case ExpressionClass::kBinary: return BindBinary(e.As<BinaryExpression>());
      case ExpressionClass::kConjunction: return BindConjunction(e.As<ConjunctionExpression>());
      case ExpressionClass::kIn: return BindIn(e.As<InExpression>());
      case ExpressionClass::kBetween: return BindBetween(e.As<BetweenExpression>());
      case ExpressionClass::kIsNull: {
        const auto& n = e.As<IsNullExpression>();
        auto out = std::make_unique<BoundExpr>();
        out->kind = BoundKind::kIsNull;
        out->type = ValueType::kBool;
        out->negated = n.negated;
        GNOMON_ASSIGN_OR_RETURN(auto child, Bind(*n.child));
        out->children.push_back(std::move(child));
        return out;
      }
      case ExpressionClass::kCase: return BindCase(e.As<CaseExpression>());
      case ExpressionClass::kCast: {
        const auto& c = e.As<CastExpression>();
        GNOMON_ASSIGN_OR_RETURN(auto child, Bind(*c.child));
        GNOMON_ASSIGN_OR_RETURN(ValueType target, CastTarget(c.type_name));
        if (target == ValueType::kTimestamp && child->IsConstant()) {
          GNOMON_RETURN_IF_ERROR(CoerceToTimestamp(child.get()));
          return child;
        }
        if (AsciiLower(c.type_name) == "interval" && child->IsConstant() &&
            child->constant.type == ValueType::kString) {
          GNOMON_ASSIGN_OR_RETURN(int64_t ns, ParseInterval(child->constant.s));
          auto out = MakeConstant(Value::Int(ns));
          out->is_interval = true;
          return out;
        }
        auto out = std::make_unique<BoundExpr>();
        out->kind = BoundKind::kCast;
        out->type = target;
        out->children.push_back(std::move(child));
        return out;
      }
      case ExpressionClass::kStar: return Status::InvalidArgument("* is not allowed here");
      case ExpressionClass::kColumnPosition: {
        const auto& p = e.As<ColumnPositionExpression>();
        if (ctx_.grouped) {
          return Status::InvalidArgument("column \"" + p.name +
                                         "\" must appear in the GROUP BY clause or be used in an aggregate function");
        }
        if (p.index < 0 || p.index >= static_cast<int>(ctx_.columns.size())) {
          return Status::InvalidArgument("column \"" + p.name + "\" does not exist");
        }
        return MakeColumnRef(p.index, ctx_.columns[p.index].type);
      }
      case ExpressionClass::kSubquery: return BindSubquery(e.As<SubqueryExpression>());
    }
    return Status::Internal("unknown expression class");
  }

 private:
  Result<BoundExprPtr> BindConstant(const ConstantExpression& c) {
    switch (c.kind) {
      case ConstantKind::kNull: return MakeConstant(Value::Null());
      case ConstantKind::kBoolean: return MakeConstant(Value::Bool(c.bool_value));
      case ConstantKind::kInteger: return MakeConstant(Value::Int(c.int_value));
      case ConstantKind::kFloat: return MakeConstant(Value::Float(c.float_value));
      case ConstantKind::kString: return MakeConstant(Value::String(c.string_value));
      case ConstantKind::kInterval: {
        auto out = MakeConstant(Value::Int(c.int_value));
        out->is_interval = true;
        return out;
      }
    }
    return Status::Internal("unknown constant kind");
  }

  Result<BoundExprPtr> BindColumn(const ColumnRefExpression& c) {
    const std::string qualifier = c.names.size() > 1 ? c.table_name() : std::string();
    Result<int> idx = ResolveColumn(ctx_, qualifier, c.column_name());
    if (idx.ok()) return MakeColumnRef(*idx, ctx_.columns[*idx].type);
    if (!idx.status().IsNotFound()) return idx.status();
    // A select-list alias (GROUP BY / ORDER BY may name one).
    if (ctx_.aliases != nullptr && c.names.size() == 1) {
      auto it = ctx_.aliases->find(c.column_name());
      if (it != ctx_.aliases->end() && it->second != nullptr && depth_ < 8) {
        ++depth_;
        auto r = Bind(*it->second);
        --depth_;
        return r;
      }
    }
    return Status::InvalidArgument(idx.status().message());
  }

  Result<BoundExprPtr> BindFunction(const FunctionExpression& f) {
    if (f.window) {
      return Status::InvalidArgument("window function " + f.ToString() +
                                     " is not allowed here: window functions go in the select list and ORDER BY, "
                                     "and do not nest");
    }
    if (IsAggregateName(f.name)) {
      return Status::InvalidArgument("aggregate function " + f.name +
                                     " is not allowed here: " + f.ToString());
    }
    auto out = std::make_unique<BoundExpr>();
    out->kind = BoundKind::kCall;
    out->name = f.name;
    for (const auto& child : f.children) {
      GNOMON_ASSIGN_OR_RETURN(auto b, Bind(*child));
      out->children.push_back(std::move(b));
    }
    GNOMON_RETURN_IF_ERROR(ResolveScalarFunction(out.get(), ctx_.now_ns));
    return out;
  }

  Result<BoundExprPtr> BindUnary(const UnaryExpression& u) {
    GNOMON_ASSIGN_OR_RETURN(auto child, Bind(*u.child));
    if (u.op == UnaryOp::kPlus) return child;
    if (u.op == UnaryOp::kNegate && child->IsConstant()) {
      Value& v = child->constant;
      if (v.type == ValueType::kInt64) { v.i = -v.i; return child; }
      if (v.type == ValueType::kFloat64) { v.f = -v.f; return child; }
    }
    auto out = std::make_unique<BoundExpr>();
    out->kind = u.op == UnaryOp::kNot ? BoundKind::kNot : BoundKind::kNegate;
    out->type = u.op == UnaryOp::kNot ? ValueType::kBool : child->type;
    if (out->type == ValueType::kUInt64) out->type = ValueType::kInt64;
    out->is_interval = child->is_interval;
    out->children.push_back(std::move(child));
    return out;
  }

  Result<BoundExprPtr> BindBinary(const BinaryExpression& b) {
    GNOMON_ASSIGN_OR_RETURN(auto left, Bind(*b.left));
    GNOMON_ASSIGN_OR_RETURN(auto right, Bind(*b.right));
    auto out = std::make_unique<BoundExpr>();
    out->op = b.op;
    if (IsComparison(b.op)) {
      out->kind = BoundKind::kCompare;
      out->type = ValueType::kBool;
      if (left->type == ValueType::kTimestamp) GNOMON_RETURN_IF_ERROR(CoerceToTimestamp(right.get()));
      if (right->type == ValueType::kTimestamp) GNOMON_RETURN_IF_ERROR(CoerceToTimestamp(left.get()));
      GNOMON_RETURN_IF_ERROR(CheckComparable(*left, *right, b));
    } else if (b.op == BinaryOp::kLike || b.op == BinaryOp::kNotLike || b.op == BinaryOp::kILike ||
               b.op == BinaryOp::kNotILike) {
      out->kind = BoundKind::kLike;
      out->type = ValueType::kBool;
      if (left->type != ValueType::kString && left->type != ValueType::kNull) {
        return Status::InvalidArgument("LIKE needs a string operand: " + b.ToString());
      }
    } else if (b.op == BinaryOp::kConcat) {
      out->kind = BoundKind::kArith;
      out->type = ValueType::kString;
    } else {
      out->kind = BoundKind::kArith;
      GNOMON_ASSIGN_OR_RETURN(out->type, ArithType(*left, *right, b));
      out->is_interval = (left->is_interval && right->is_interval) ||
                         (left->is_interval && IsNumeric(right->type)) ||
                         (right->is_interval && IsNumeric(left->type));
      if (out->type == ValueType::kTimestamp) out->is_interval = false;
    }
    out->children.push_back(std::move(left));
    out->children.push_back(std::move(right));
    return out;
  }

  Status CheckComparable(const BoundExpr& l, const BoundExpr& r, const BinaryExpression& b) {
    auto cls = [](ValueType t) {
      if (t == ValueType::kNull) return 0;
      if (t == ValueType::kString) return 1;
      if (t == ValueType::kTimestamp) return 2;
      return 3;  // numbers and bools
    };
    int a = cls(l.type), c = cls(r.type);
    if (a == 0 || c == 0 || a == c) return Status::OK();
    if ((a == 2 && c == 3) || (a == 3 && c == 2)) return Status::OK();
    return Status::InvalidArgument("cannot compare " + std::string(ValueTypeName(l.type)) + " with " +
                                   std::string(ValueTypeName(r.type)) + ": " + b.ToString());
  }

  Result<ValueType> ArithType(const BoundExpr& l, const BoundExpr& r, const BinaryExpression& b) {
    ValueType lt = l.type, rt = r.type;
    if (lt == ValueType::kNull || rt == ValueType::kNull) {
      return lt == ValueType::kNull ? (rt == ValueType::kNull ? ValueType::kNull : rt) : lt;
    }
    if (lt == ValueType::kTimestamp || rt == ValueType::kTimestamp) {
      if (b.op == BinaryOp::kSubtract && lt == ValueType::kTimestamp && rt == ValueType::kTimestamp) {
        return ValueType::kInt64;
      }
      if (b.op == BinaryOp::kAdd || b.op == BinaryOp::kSubtract) return ValueType::kTimestamp;
      return Status::InvalidArgument("invalid arithmetic on a timestamp: " + b.ToString());
    }
    if (lt == ValueType::kString || rt == ValueType::kString) {
      return Status::InvalidArgument("arithmetic on a string: " + b.ToString());
    }
    if (lt == ValueType::kFloat64 || rt == ValueType::kFloat64 || b.op == BinaryOp::kPower) {
      return ValueType::kFloat64;
    }
    if (lt == ValueType::kUInt64 && rt == ValueType::kUInt64) return ValueType::kUInt64;
    return ValueType::kInt64;
  }

  Result<BoundExprPtr> BindConjunction(const ConjunctionExpression& c) {
    auto out = std::make_unique<BoundExpr>();
    out->kind = c.op == ConjunctionOp::kAnd ? BoundKind::kAnd : BoundKind::kOr;
    out->type = ValueType::kBool;
    for (const auto& child : c.children) {
      GNOMON_ASSIGN_OR_RETURN(auto b, Bind(*child));
      out->children.push_back(std::move(b));
    }
    return out;
  }

  Result<Chunk> RunSubquery(const SelectNode& subquery, const ParsedExpression& e) {
    if (ctx_.subqueries == nullptr) return Unsupported(e, "a subquery here");
    return ctx_.subqueries->Run(subquery);
  }

  // An uncorrelated (SELECT ...) or EXISTS (SELECT ...), run once: its answer is a constant.
  Result<BoundExprPtr> BindSubquery(const SubqueryExpression& s) {
    GNOMON_ASSIGN_OR_RETURN(Chunk rows, RunSubquery(*s.subquery, s));
    if (s.kind == SubqueryKind::kExists) return MakeConstant(Value::Bool(rows.rows > 0));
    if (rows.columns.size() != 1) return Status::InvalidArgument("subquery must return only one column: " + s.ToString());
    if (rows.rows > 1) {
      return Status::InvalidArgument("more than one row returned by a subquery used as an expression: " + s.ToString());
    }
    BoundExprPtr out = MakeConstant(rows.rows == 0 ? Value::Null() : GetValue(rows.columns[0], 0));
    out->type = rows.columns[0].type;
    return out;
  }

  Result<BoundExprPtr> BindIn(const InExpression& in) {
    auto out = std::make_unique<BoundExpr>();
    out->kind = BoundKind::kInList;
    out->type = ValueType::kBool;
    out->negated = in.negated;
    GNOMON_ASSIGN_OR_RETURN(auto operand, Bind(*in.operand));
    bool ts = operand->type == ValueType::kTimestamp;
    out->children.push_back(std::move(operand));
    if (in.subquery) {  // uncorrelated: its values as the list
      GNOMON_ASSIGN_OR_RETURN(Chunk rows, RunSubquery(*in.subquery, in));
      if (rows.columns.size() != 1) return Status::InvalidArgument("subquery has too many columns: " + in.ToString());
      std::unordered_set<std::string> seen;  // each value once
      std::string key;
      for (size_t r = 0; r < rows.rows; ++r) {
        key.clear();
        AppendRowKeyOf(rows, r, {0}, &key);
        if (!seen.insert(key).second) continue;
        BoundExprPtr b = MakeConstant(GetValue(rows.columns[0], r));
        if (ts) GNOMON_RETURN_IF_ERROR(CoerceToTimestamp(b.get()));
        out->children.push_back(std::move(b));
      }
      return out;
    }
    for (const auto& item : in.list) {
      GNOMON_ASSIGN_OR_RETURN(auto b, Bind(*item));
      if (ts) GNOMON_RETURN_IF_ERROR(CoerceToTimestamp(b.get()));
      out->children.push_back(std::move(b));
    }
    return out;
  }

  Result<BoundExprPtr> BindBetween(const BetweenExpression& b) {
    // x BETWEEN a AND b  ==  x >= a AND x <= b  (NOT BETWEEN: x < a OR x > b)
    auto make = [&](BinaryOp op, const ParsedExpression& bound) -> Result<BoundExprPtr> {
      BinaryExpression cmp(op, b.input->Copy(), bound.Copy());
      return BindBinary(cmp);
    };
    auto out = std::make_unique<BoundExpr>();
    out->kind = b.negated ? BoundKind::kOr : BoundKind::kAnd;
    out->type = ValueType::kBool;
    GNOMON_ASSIGN_OR_RETURN(auto lo, make(b.negated ? BinaryOp::kLess : BinaryOp::kGreaterEqual, *b.lower));
    GNOMON_ASSIGN_OR_RETURN(auto hi, make(b.negated ? BinaryOp::kGreater : BinaryOp::kLessEqual, *b.upper));
    out->children.push_back(std::move(lo));
    out->children.push_back(std::move(hi));
    return out;
  }

  Result<BoundExprPtr> BindCase(const CaseExpression& c) {
    auto out = std::make_unique<BoundExpr>();
    out->kind = BoundKind::kCase;
    if (c.operand) {
      GNOMON_ASSIGN_OR_RETURN(auto op, Bind(*c.operand));
      out->children.push_back(std::move(op));
      out->has_operand = true;
    }
    ValueType type = ValueType::kNull;
    for (const CaseCheck& check : c.checks) {
      GNOMON_ASSIGN_OR_RETURN(auto w, Bind(*check.when));
      GNOMON_ASSIGN_OR_RETURN(auto t, Bind(*check.then));
      if (type == ValueType::kNull) type = t->type;
      else if (t->type != ValueType::kNull && t->type != type) {
        if (IsNumeric(type) && IsNumeric(t->type)) type = ValueType::kFloat64;
      }
      out->children.push_back(std::move(w));
      out->children.push_back(std::move(t));
    }
    if (c.else_expr) {
      GNOMON_ASSIGN_OR_RETURN(auto e, Bind(*c.else_expr));
      if (type == ValueType::kNull) type = e->type;
      else if (IsNumeric(type) && IsNumeric(e->type) && e->type != type) type = ValueType::kFloat64;
      out->children.push_back(std::move(e));
      out->has_else = true;
    }
    out->type = type;
    return out;
  }

  const BindContext& ctx_;
  int depth_ = 0;
};

}  // namespace

BoundExprPtr MakeConstant(Value v) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kConstant;
  e->type = v.type;
  e->constant = std::move(v);
  return e;
}

BoundExprPtr MakeColumnRef(int column, ValueType type) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kColumn;
  e->column = column;
  e->type = type;
  return e;
}

BoundExprPtr MakeCast(BoundExprPtr e, ValueType type) {
  if (e->type == type) return e;
  auto cast = std::make_unique<BoundExpr>();
  cast->kind = BoundKind::kCast;
  cast->type = type;
  cast->children.push_back(std::move(e));
  return cast;
}

BoundExprPtr MakeAnd(std::vector<BoundExprPtr> parts) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return std::move(parts[0]);
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kAnd;
  e->type = ValueType::kBool;
  e->children = std::move(parts);
  return e;
}

BoundExprPtr MakeEqual(BoundExprPtr a, BoundExprPtr b) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kCompare;
  e->op = BinaryOp::kEqual;
  e->type = ValueType::kBool;
  e->children.push_back(std::move(a));
  e->children.push_back(std::move(b));
  return e;
}

namespace {

bool QualifiedOnly(const BindContext& context, size_t i) {
  return i < context.sources.size() && context.sources[i].qualified_only;
}

// The columns named `name` that `qualifier` allows (exact spelling first, then any case).
std::vector<int> Candidates(const BindContext& context, const std::string& qualifier, const std::string& name) {
  std::vector<int> out;
  for (int pass = 0; pass < 2 && out.empty(); ++pass) {
    const std::string lower = AsciiLower(name);
    for (size_t i = 0; i < context.columns.size(); ++i) {
      const bool same = pass == 0 ? context.columns[i].name == name : AsciiLower(context.columns[i].name) == lower;
      if (!same) continue;
      if (qualifier.empty() ? QualifiedOnly(context, i) : !ColumnHasQualifier(context, i, qualifier)) continue;
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

}  // namespace

bool ColumnHasQualifier(const BindContext& context, size_t i, const std::string& qualifier) {
  const std::vector<std::string>& names =
      context.sources.empty() ? context.qualifiers
                              : (i < context.sources.size() ? context.sources[i].qualifiers : std::vector<std::string>{});
  const std::string q = AsciiLower(qualifier);
  return std::any_of(names.begin(), names.end(), [&](const std::string& x) { return AsciiLower(x) == q; });
}

int FindColumn(const BindContext& context, const std::string& name) {
  std::vector<int> found = Candidates(context, "", name);
  return found.empty() ? -1 : found[0];
}

Result<int> ResolveColumn(const BindContext& context, const std::string& qualifier, const std::string& name) {
  if (!qualifier.empty()) {
    bool known = false;
    for (size_t i = 0; i < std::max(context.columns.size(), size_t{1}) && !known; ++i) {
      known = ColumnHasQualifier(context, i, qualifier);
    }
    if (!known) return Status::InvalidArgument("missing FROM-clause entry for table \"" + qualifier + "\"");
  }
  std::vector<int> found = Candidates(context, qualifier, name);
  const std::string shown = qualifier.empty() ? name : qualifier + "." + name;
  if (found.empty()) return Status::NotFound("column \"" + shown + "\" does not exist");
  // One relation may repeat a name (a subquery's SELECT a, a): the first is meant, as before joins.
  if (found.size() > 1 && !context.sources.empty()) {
    return Status::InvalidArgument("column reference \"" + shown + "\" is ambiguous");
  }
  return found[0];
}

Result<BoundExprPtr> Bind(const ParsedExpression& expr, const BindContext& context) {
  Binder binder(context);
  return binder.Bind(expr);
}

void CollectCalls(const ParsedExpression& e, bool (*match)(const FunctionExpression&), DistinctCalls* out) {
  if (e.expression_class == ExpressionClass::kFunction && match(e.As<FunctionExpression>())) {
    std::string text = e.ToString();
    if (out->seen.insert(text).second) {
      out->calls.push_back(&e.As<FunctionExpression>());
      out->texts.push_back(std::move(text));
    }
    return;
  }
  e.ForEachChild([&](const ParsedExpression& c) { CollectCalls(c, match, out); });
}

bool IsAggregateName(const std::string& name) {
  static const char* kNames[] = {"count", "sum", "min", "max", "avg", "mean", "first", "last",
                                 "first_value", "last_value", "arg_max", "arg_min", "argmax",
                                 "argmin", "stddev", "stddev_samp", "stddev_pop", "variance",
                                 "var_samp", "var_pop", "median", "quantile_cont", "quantile_disc",
                                 "percentile_cont", "percentile_disc", "mode", "percentile_nearest",
                                 "arg_percentile_nearest"};
  for (const char* n : kNames) {
    if (name == n) return true;
  }
  return false;
}

bool IsAggregateCall(const FunctionExpression& f) { return IsAggregateName(f.name) && !f.window; }

bool ContainsAggregate(const ParsedExpression& expr) {
  if (expr.expression_class == ExpressionClass::kFunction && IsAggregateCall(expr.As<FunctionExpression>())) {
    return true;
  }
  bool found = false;
  expr.ForEachChild([&](const ParsedExpression& c) { found = found || ContainsAggregate(c); });
  return found;
}

}  // namespace gnomon::query
