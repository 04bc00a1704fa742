#include "src/query/execution/expression_executor.h"

#include <cmath>
#include <cstring>

#include "src/query/execution/vector_expressions.h"
#include "src/query/function/scalar_functions.h"

namespace gnomon::query {
namespace {

// SQL LIKE with % and _ (and backslash escapes); case-insensitive for ILIKE.
bool LikeMatch(std::string_view s, std::string_view p, bool ci) {
  size_t si = 0, pi = 0, star_p = std::string_view::npos, star_s = 0;
  auto eq = [&](char a, char b) {
    return ci ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b))
              : a == b;
  };
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '\\' && pi + 1 < p.size()) {
      if (eq(s[si], p[pi + 1])) { si++; pi += 2; continue; }
    } else if (pi < p.size() && (p[pi] == '_' || (p[pi] != '%' && eq(s[si], p[pi])))) {
      si++; pi++; continue;
    } else if (pi < p.size() && p[pi] == '%') {
      star_p = pi++; star_s = si; continue;
    }
    if (star_p != std::string_view::npos) { pi = star_p + 1; si = ++star_s; continue; }
    return false;
  }
  while (pi < p.size() && p[pi] == '%') pi++;
  return pi == p.size();
}

bool CompareResult(BinaryOp op, int c) {
  switch (op) {
    case BinaryOp::kEqual: return c == 0;
    case BinaryOp::kNotEqual: return c != 0;
    case BinaryOp::kLess: return c < 0;
    case BinaryOp::kLessEqual: return c <= 0;
    case BinaryOp::kGreater: return c > 0;
    case BinaryOp::kGreaterEqual: return c >= 0;
    default: return false;
  }
}

Result<Value> Arith(const BoundExpr& e, const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return Value::Null();
  if (e.op == BinaryOp::kConcat) return Value::String(a.ToString() + b.ToString());
  switch (e.type) {
    case ValueType::kTimestamp: {
      int64_t x = a.type == ValueType::kFloat64 ? static_cast<int64_t>(a.f) : a.i;
      int64_t y = b.type == ValueType::kFloat64 ? static_cast<int64_t>(b.f) : b.i;
      return Value::Timestamp(e.op == BinaryOp::kAdd ? x + y : x - y);
    }
    case ValueType::kInt64: {
      int64_t x = a.type == ValueType::kBool ? a.b : (a.type == ValueType::kUInt64 ? static_cast<int64_t>(a.u) : a.i);
      int64_t y = b.type == ValueType::kBool ? b.b : (b.type == ValueType::kUInt64 ? static_cast<int64_t>(b.u) : b.i);
      int64_t r = 0;
      switch (e.op) {
        case BinaryOp::kAdd:
          if (__builtin_add_overflow(x, y, &r)) return Status::OutOfRange("integer overflow");
          break;
        case BinaryOp::kSubtract:
          if (__builtin_sub_overflow(x, y, &r)) return Status::OutOfRange("integer overflow");
          break;
        case BinaryOp::kMultiply:
          if (__builtin_mul_overflow(x, y, &r)) return Status::OutOfRange("integer overflow");
          break;
        case BinaryOp::kDivide:
          if (y == 0) return Status::InvalidArgument("division by zero");
          if (x == INT64_MIN && y == -1) return Status::OutOfRange("integer overflow");
          r = x / y;
          break;
        case BinaryOp::kModulo:
          if (y == 0) return Status::InvalidArgument("division by zero");
          r = (y == -1) ? 0 : x % y;
          break;
        default: return Status::InvalidArgument("bad integer operator");
      }
      return Value::Int(r);
    }
    case ValueType::kUInt64: {
      uint64_t x = a.u, y = b.u, r = 0;
      switch (e.op) {
        case BinaryOp::kAdd: r = x + y; break;
        case BinaryOp::kSubtract: r = x - y; break;
        case BinaryOp::kMultiply: r = x * y; break;
        case BinaryOp::kDivide:
          if (y == 0) return Status::InvalidArgument("division by zero");
          r = x / y;
          break;
        case BinaryOp::kModulo:
          if (y == 0) return Status::InvalidArgument("division by zero");
          r = x % y;
          break;
        default: return Status::InvalidArgument("bad integer operator");
      }
      return Value::UInt(r);
    }
    default: {
      double x = a.AsDouble(), y = b.AsDouble();
      switch (e.op) {
        case BinaryOp::kAdd: return Value::Float(x + y);
        case BinaryOp::kSubtract: return Value::Float(x - y);
        case BinaryOp::kMultiply: return Value::Float(x * y);
        case BinaryOp::kDivide:
          if (y == 0) return Status::InvalidArgument("division by zero");
          return Value::Float(x / y);
        case BinaryOp::kModulo:
          if (y == 0) return Status::InvalidArgument("division by zero");
          return Value::Float(std::fmod(x, y));
        case BinaryOp::kPower: return Value::Float(std::pow(x, y));
        default: return Status::InvalidArgument("bad operator");
      }
    }
  }
}

Result<Value> CastValue(const Value& v, ValueType target) {
  if (v.is_null()) return Value::Null();
  switch (target) {
    case ValueType::kFloat64:
      if (v.type == ValueType::kString) {
        char* end = nullptr;
        double d = std::strtod(v.s.c_str(), &end);
        if (end == v.s.c_str() || *end != '\0') return Status::InvalidArgument("invalid number: " + v.s);
        return Value::Float(d);
      }
      return Value::Float(v.AsDouble());
    case ValueType::kInt64:
      if (v.type == ValueType::kString) {
        char* end = nullptr;
        long long x = std::strtoll(v.s.c_str(), &end, 10);
        if (end == v.s.c_str() || *end != '\0') return Status::InvalidArgument("invalid integer: " + v.s);
        return Value::Int(x);
      }
      if (v.type == ValueType::kFloat64) return Value::Int(static_cast<int64_t>(std::llround(v.f)));
      if (v.type == ValueType::kUInt64) return Value::Int(static_cast<int64_t>(v.u));
      if (v.type == ValueType::kBool) return Value::Int(v.b);
      return Value::Int(v.i);
    case ValueType::kUInt64: return Value::UInt(static_cast<uint64_t>(v.AsDouble()));
    case ValueType::kBool:
      if (v.type == ValueType::kString) return Value::Bool(v.s == "true" || v.s == "t" || v.s == "1");
      return Value::Bool(v.AsDouble() != 0);
    case ValueType::kString: return Value::String(v.ToString());
    case ValueType::kTimestamp:
      if (v.type == ValueType::kInt64) return Value::Timestamp(v.i);
      return Value::Timestamp(static_cast<int64_t>(v.AsDouble()));
    default: return Value::Null();
  }
}

// a `op` constant, for a numeric column: the hot filter shape (usage_user > 90.0).
template <typename T>
void CompareColumnConst(const std::vector<T>& col, double c, BinaryOp op, std::vector<uint8_t>* out) {
  const size_t n = col.size();
  out->resize(n);
  uint8_t* o = out->data();
  switch (op) {
    case BinaryOp::kEqual: for (size_t i = 0; i < n; ++i) o[i] = static_cast<double>(col[i]) == c; break;
    case BinaryOp::kNotEqual: for (size_t i = 0; i < n; ++i) o[i] = static_cast<double>(col[i]) != c; break;
    case BinaryOp::kLess: for (size_t i = 0; i < n; ++i) o[i] = static_cast<double>(col[i]) < c; break;
    case BinaryOp::kLessEqual: for (size_t i = 0; i < n; ++i) o[i] = static_cast<double>(col[i]) <= c; break;
    case BinaryOp::kGreater: for (size_t i = 0; i < n; ++i) o[i] = static_cast<double>(col[i]) > c; break;
    case BinaryOp::kGreaterEqual: for (size_t i = 0; i < n; ++i) o[i] = static_cast<double>(col[i]) >= c; break;
    default: break;
  }
}

bool TryFastCompare(const BoundExpr& e, const Chunk& chunk, Vector* out) {
  const BoundExpr* col = e.children[0].get();
  const BoundExpr* cst = e.children[1].get();
  BinaryOp op = e.op;
  if (col->kind != BoundKind::kColumn) {
    std::swap(col, cst);
    op = MirrorComparison(op);
  }
  if (col->kind != BoundKind::kColumn || cst->kind != BoundKind::kConstant) return false;
  const Vector& v = chunk.columns[col->column];
  const Value& c = cst->constant;
  InitVector(out, ValueType::kBool);
  if (c.is_null()) {
    FillConstant(out, ValueType::kBool, Value::Null(), chunk.rows);
    return true;
  }
  if (v.type == ValueType::kString && c.type == ValueType::kString) {
    out->b.resize(v.str.size());
    for (size_t i = 0; i < v.str.size(); ++i) {
      int r = v.str[i].compare(c.s);
      out->b[i] = CompareResult(op, r < 0 ? -1 : (r > 0 ? 1 : 0));
    }
  } else if ((v.type == ValueType::kInt64 || v.type == ValueType::kTimestamp) &&
             (c.type == ValueType::kInt64 || c.type == ValueType::kTimestamp)) {
    out->b.resize(v.i64.size());
    for (size_t i = 0; i < v.i64.size(); ++i) {
      int64_t x = v.i64[i];
      out->b[i] = CompareResult(op, x < c.i ? -1 : (x > c.i ? 1 : 0));
    }
  } else if (v.type == ValueType::kFloat64 && IsNumeric(c.type)) {
    CompareColumnConst(v.f64, c.AsDouble(), op, &out->b);
  } else if (v.type == ValueType::kInt64 && c.type == ValueType::kFloat64) {
    CompareColumnConst(v.i64, c.f, op, &out->b);
  } else {
    return false;
  }
  out->validity = v.validity;
  return true;
}

}  // namespace

Result<Value> EvalRow(const BoundExpr& e, const Chunk& chunk, size_t row) {
  switch (e.kind) {
    case BoundKind::kConstant: return e.constant;
    case BoundKind::kColumn: return GetValue(chunk.columns[e.column], row);
    case BoundKind::kCall: {
      std::vector<Value> args;
      args.reserve(e.children.size());
      for (const auto& c : e.children) {
        GNOMON_ASSIGN_OR_RETURN(Value v, EvalRow(*c, chunk, row));
        args.push_back(std::move(v));
      }
      return EvalScalarFunction(e, args);
    }
    case BoundKind::kAnd:
    case BoundKind::kOr: {
      const bool is_and = e.kind == BoundKind::kAnd;
      bool saw_null = false;
      for (const auto& c : e.children) {
        GNOMON_ASSIGN_OR_RETURN(Value v, EvalRow(*c, chunk, row));
        if (v.is_null()) { saw_null = true; continue; }
        bool b = v.AsDouble() != 0;
        if (is_and && !b) return Value::Bool(false);
        if (!is_and && b) return Value::Bool(true);
      }
      return saw_null ? Value::Null() : Value::Bool(is_and);
    }
    case BoundKind::kNot: {
      GNOMON_ASSIGN_OR_RETURN(Value v, EvalRow(*e.children[0], chunk, row));
      if (v.is_null()) return v;
      return Value::Bool(v.AsDouble() == 0);
    }
    case BoundKind::kCompare: {
      GNOMON_ASSIGN_OR_RETURN(Value a, EvalRow(*e.children[0], chunk, row));
      GNOMON_ASSIGN_OR_RETURN(Value b, EvalRow(*e.children[1], chunk, row));
      if (a.is_null() || b.is_null()) return Value::Null();
      return Value::Bool(CompareResult(e.op, CompareValues(a, b)));
    }
    case BoundKind::kArith: {
      GNOMON_ASSIGN_OR_RETURN(Value a, EvalRow(*e.children[0], chunk, row));
      GNOMON_ASSIGN_OR_RETURN(Value b, EvalRow(*e.children[1], chunk, row));
      return Arith(e, a, b);
    }
    case BoundKind::kNegate: {
      GNOMON_ASSIGN_OR_RETURN(Value a, EvalRow(*e.children[0], chunk, row));
      if (a.is_null()) return a;
      if (a.type == ValueType::kFloat64) return Value::Float(-a.f);
      if (a.type == ValueType::kUInt64) return Value::Int(-static_cast<int64_t>(a.u));
      return Value::Int(-a.i);
    }
    case BoundKind::kIsNull: {
      GNOMON_ASSIGN_OR_RETURN(Value a, EvalRow(*e.children[0], chunk, row));
      return Value::Bool(a.is_null() != e.negated);
    }
    case BoundKind::kInList: {
      GNOMON_ASSIGN_OR_RETURN(Value a, EvalRow(*e.children[0], chunk, row));
      if (a.is_null()) return Value::Null();
      bool saw_null = false;
      for (size_t i = 1; i < e.children.size(); ++i) {
        GNOMON_ASSIGN_OR_RETURN(Value b, EvalRow(*e.children[i], chunk, row));
        if (b.is_null()) { saw_null = true; continue; }
        if (CompareValues(a, b) == 0) return Value::Bool(!e.negated);
      }
      return saw_null ? Value::Null() : Value::Bool(e.negated);
    }
    case BoundKind::kLike: {
      GNOMON_ASSIGN_OR_RETURN(Value a, EvalRow(*e.children[0], chunk, row));
      GNOMON_ASSIGN_OR_RETURN(Value p, EvalRow(*e.children[1], chunk, row));
      if (a.is_null() || p.is_null()) return Value::Null();
      bool ci = e.op == BinaryOp::kILike || e.op == BinaryOp::kNotILike;
      bool neg = e.op == BinaryOp::kNotLike || e.op == BinaryOp::kNotILike;
      return Value::Bool(LikeMatch(a.s, p.s, ci) != neg);
    }
    case BoundKind::kCase: {
      size_t i = 0;
      Value operand;
      if (e.has_operand) {
        GNOMON_ASSIGN_OR_RETURN(operand, EvalRow(*e.children[0], chunk, row));
        i = 1;
      }
      size_t end = e.children.size() - (e.has_else ? 1 : 0);
      for (; i + 1 < end; i += 2) {
        GNOMON_ASSIGN_OR_RETURN(Value w, EvalRow(*e.children[i], chunk, row));
        bool hit = e.has_operand ? (!w.is_null() && !operand.is_null() && CompareValues(operand, w) == 0)
                                 : (!w.is_null() && w.AsDouble() != 0);
        if (hit) {
          GNOMON_ASSIGN_OR_RETURN(Value t, EvalRow(*e.children[i + 1], chunk, row));
          return t.is_null() || t.type == e.type ? t : CastValue(t, e.type);
        }
      }
      if (e.has_else) {
        GNOMON_ASSIGN_OR_RETURN(Value t, EvalRow(*e.children.back(), chunk, row));
        return t.is_null() || t.type == e.type ? t : CastValue(t, e.type);
      }
      return Value::Null();
    }
    case BoundKind::kCast: {
      GNOMON_ASSIGN_OR_RETURN(Value a, EvalRow(*e.children[0], chunk, row));
      return CastValue(a, e.type);
    }
  }
  return Status::Internal("unknown bound expression");
}

Result<Value> EvalConstant(const BoundExpr& e) {
  Chunk empty;
  empty.rows = 1;
  return EvalRow(e, empty, 0);
}

Status Evaluate(const BoundExpr& e, const Chunk& chunk, Vector* out) {
  const size_t n = chunk.rows;
  switch (e.kind) {
    case BoundKind::kColumn: *out = chunk.columns[e.column]; return Status::OK();
    case BoundKind::kConstant: FillConstant(out, e.type, e.constant, n); return Status::OK();
    case BoundKind::kCompare:
      if (TryFastCompare(e, chunk, out)) return Status::OK();
      break;
    case BoundKind::kAnd:
    case BoundKind::kOr: {
      const bool is_and = e.kind == BoundKind::kAnd;
      // Three-valued: track "definitely decided" and "unknown" per row.
      std::vector<uint8_t> value(n, is_and ? 1 : 0), unknown(n, 0);
      Vector v;
      for (const auto& c : e.children) {
        GNOMON_RETURN_IF_ERROR(Evaluate(*c, chunk, &v));
        for (size_t i = 0; i < n; ++i) {
          if (v.type == ValueType::kNull || v.IsNull(i)) { unknown[i] = 1; continue; }
          bool b = v.type == ValueType::kBool ? v.b[i] != 0 : GetValue(v, i).AsDouble() != 0;
          if (is_and && !b) value[i] = 0;
          if (!is_and && b) value[i] = 1;
        }
      }
      InitVector(out, ValueType::kBool);
      out->b = std::move(value);
      bool any_null = false;
      for (size_t i = 0; i < n; ++i) {
        // AND: a false decides; OR: a true decides; otherwise an unknown makes it NULL.
        if (unknown[i] && (is_and ? out->b[i] == 1 : out->b[i] == 0)) any_null = true;
      }
      if (any_null) {
        out->validity.assign(n, 1);
        for (size_t i = 0; i < n; ++i) {
          if (unknown[i] && (is_and ? out->b[i] == 1 : out->b[i] == 0)) out->validity[i] = 0;
        }
      }
      return Status::OK();
    }
    case BoundKind::kArith:
      if (TryVectorArith(e, chunk, out)) return Status::OK();
      break;
    case BoundKind::kCast:
      if (TryVectorCast(e, chunk, out)) return Status::OK();
      break;
    case BoundKind::kCase:
      if (TryVectorCase(e, chunk, out)) return Status::OK();
      break;
    case BoundKind::kIsNull: {
      // Reads only the validity: a column operand is not copied.
      Vector tmp;
      const Vector* v = &tmp;
      if (e.children[0]->kind == BoundKind::kColumn) {
        v = &chunk.columns[e.children[0]->column];
      } else {
        GNOMON_RETURN_IF_ERROR(Evaluate(*e.children[0], chunk, &tmp));
      }
      InitVector(out, ValueType::kBool);
      out->b.resize(n);
      const bool all_null = v->type == ValueType::kNull;
      for (size_t i = 0; i < n; ++i) out->b[i] = (all_null || v->IsNull(v->constant ? 0 : i)) != e.negated;
      return Status::OK();
    }
    case BoundKind::kCall: {
      TimeBucketFn fn;
      int col;
      const bool bucket = AsTimeBucket(e, &fn, &col);
      if (bucket || AsBucketEnd(e, &fn, &col)) {
        const Vector& t = chunk.columns[col];
        InitVector(out, ValueType::kTimestamp);
        out->i64.resize(t.i64.size());
        for (size_t i = 0; i < t.i64.size(); ++i) {
          const int64_t start = fn.Apply(t.i64[i]);
          out->i64[i] = bucket ? start : fn.BucketEnd(start);
        }
        out->validity = t.validity;
        return Status::OK();
      }
      break;
    }
    default: break;
  }
  InitVector(out, e.type, n);
  for (size_t i = 0; i < n; ++i) {
    GNOMON_ASSIGN_OR_RETURN(Value v, EvalRow(e, chunk, i));
    if (!v.is_null() && v.type != e.type && e.type != ValueType::kNull) {
      GNOMON_ASSIGN_OR_RETURN(v, CastValue(v, e.type));
    }
    AppendValue(out, v);
  }
  return Status::OK();
}

Status EvaluateFilter(const BoundExpr& e, const Chunk& chunk, std::vector<uint32_t>* selection) {
  Vector v;
  GNOMON_RETURN_IF_ERROR(Evaluate(e, chunk, &v));
  selection->clear();
  for (size_t i = 0; i < chunk.rows; ++i) {
    if (v.type == ValueType::kNull || v.IsNull(i)) continue;
    bool b = v.type == ValueType::kBool ? v.b[i] != 0 : GetValue(v, i).AsDouble() != 0;
    if (b) selection->push_back(static_cast<uint32_t>(i));
  }
  return Status::OK();
}

void SelectRows(Chunk* chunk, const std::vector<uint32_t>& sel) {
  if (sel.size() == chunk->rows) return;
  for (Vector& v : chunk->columns) {
    auto pick = [&](auto& vec) {
      if (vec.empty()) return;
      for (size_t i = 0; i < sel.size(); ++i) {
        if (sel[i] != i) vec[i] = std::move(vec[sel[i]]);  // self-move would empty a string
      }
      vec.resize(sel.size());
    };
    pick(v.i64);
    pick(v.f64);
    pick(v.u64);
    pick(v.b);
    pick(v.str);
    pick(v.validity);
  }
  chunk->rows = sel.size();
}

}  // namespace gnomon::query
