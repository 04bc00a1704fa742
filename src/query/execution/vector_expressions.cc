#include "src/query/execution/vector_expressions.h"

#include "src/query/execution/expression_executor.h"

namespace gnomon::query {
namespace {

// A numeric vector's row as a double (the caller checked the type and validity).
double NumberAt(const Vector& v, size_t i) {
  return v.type == ValueType::kFloat64 ? v.f64[i] : static_cast<double>(v.i64[i]);
}

bool IsPlainNumeric(const Vector& v) {
  return !v.constant && (v.type == ValueType::kFloat64 || v.type == ValueType::kInt64);
}

bool Valid(const Vector& v, size_t i) { return v.validity.empty() || v.validity[i] != 0; }

// Evaluates `e` as a vector; false when that failed (the row path will report it).
bool EvaluateOrGiveUp(const BoundExpr& e, const Chunk& chunk, Vector* out) {
  return Evaluate(e, chunk, out).ok() && (out->type == ValueType::kNull || out->constant == false);
}

}  // namespace

bool TryVectorArith(const BoundExpr& e, const Chunk& chunk, Vector* out) {
  if (e.type != ValueType::kFloat64) return false;
  if (e.op != BinaryOp::kAdd && e.op != BinaryOp::kSubtract && e.op != BinaryOp::kMultiply &&
      e.op != BinaryOp::kDivide) {
    return false;
  }
  Vector a, b;
  if (!EvaluateOrGiveUp(*e.children[0], chunk, &a) || !EvaluateOrGiveUp(*e.children[1], chunk, &b)) return false;
  if (!IsPlainNumeric(a) || !IsPlainNumeric(b)) return false;
  const size_t n = chunk.rows;
  InitVector(out, ValueType::kFloat64);
  out->f64.resize(n);
  const bool nulls = !a.validity.empty() || !b.validity.empty();
  if (nulls) out->validity.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const bool valid = Valid(a, i) && Valid(b, i);
    if (nulls) out->validity[i] = valid;
    if (!valid) {
      out->f64[i] = 0;
      continue;
    }
    const double x = NumberAt(a, i), y = NumberAt(b, i);
    switch (e.op) {
      case BinaryOp::kAdd: out->f64[i] = x + y; break;
      case BinaryOp::kSubtract: out->f64[i] = x - y; break;
      case BinaryOp::kMultiply: out->f64[i] = x * y; break;
      default:
        if (y == 0) return false;  // "division by zero", from the row path
        out->f64[i] = x / y;
        break;
    }
  }
  return true;
}

bool TryVectorCast(const BoundExpr& e, const Chunk& chunk, Vector* out) {
  if (e.type != ValueType::kFloat64) return false;
  Vector a;
  if (!EvaluateOrGiveUp(*e.children[0], chunk, &a) || !IsPlainNumeric(a)) return false;
  InitVector(out, ValueType::kFloat64);
  if (a.type == ValueType::kFloat64) {
    out->f64 = std::move(a.f64);
  } else {
    out->f64.assign(a.i64.begin(), a.i64.end());
  }
  out->validity = std::move(a.validity);
  return true;
}

bool TryVectorCase(const BoundExpr& e, const Chunk& chunk, Vector* out) {
  if (e.has_operand || e.type == ValueType::kNull) return false;
  const size_t n = chunk.rows;
  const size_t pairs = (e.children.size() - (e.has_else ? 1 : 0)) / 2;
  // Each row's branch: the first WHEN that holds, else the ELSE (pairs), or NULL (pairs + 1).
  std::vector<uint32_t> branch(n, static_cast<uint32_t>(e.has_else ? pairs : pairs + 1));
  std::vector<uint8_t> decided(n, 0);
  Vector cond;
  for (size_t p = 0; p < pairs; ++p) {
    if (!EvaluateOrGiveUp(*e.children[2 * p], chunk, &cond)) return false;
    if (cond.type != ValueType::kBool && cond.type != ValueType::kNull) return false;
    for (size_t i = 0; i < n; ++i) {
      if (decided[i] || cond.type == ValueType::kNull || !Valid(cond, i) || cond.b[i] == 0) continue;
      decided[i] = 1;
      branch[i] = static_cast<uint32_t>(p);
    }
  }
  // The branches rows take, as vectors of the CASE's type.
  std::vector<Vector> values(pairs + 1);
  std::vector<uint8_t> used(pairs + 2, 0);
  for (uint32_t b : branch) used[b] = 1;
  for (size_t p = 0; p <= pairs; ++p) {
    if (!used[p]) continue;
    const BoundExpr& then = p < pairs ? *e.children[2 * p + 1] : *e.children.back();
    if (!EvaluateOrGiveUp(then, chunk, &values[p])) return false;
    if (values[p].type != e.type && values[p].type != ValueType::kNull) return false;
  }
  InitVector(out, e.type, n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t b = branch[i];
    if (b > pairs) {
      AppendNull(out);
    } else {
      AppendFrom(out, values[b], i);
    }
  }
  return true;
}

}  // namespace gnomon::query
