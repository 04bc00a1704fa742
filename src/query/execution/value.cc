#include "src/query/execution/value.h"

#include <cmath>
#include <cstdio>

#include "src/base/time_util.h"

namespace gnomon::query {

bool IsNumeric(ValueType t) {
  return t == ValueType::kInt64 || t == ValueType::kUInt64 || t == ValueType::kFloat64 ||
         t == ValueType::kBool;
}

double Value::AsDouble() const {
  switch (type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: return static_cast<double>(i);
    case ValueType::kUInt64: return static_cast<double>(u);
    case ValueType::kFloat64: return f;
    case ValueType::kBool: return b ? 1 : 0;
    default: return 0;
  }
}

std::string Value::ToString() const {
  switch (type) {
    case ValueType::kNull: return "NULL";
    case ValueType::kInt64: return std::to_string(i);
    case ValueType::kUInt64: return std::to_string(u);
    case ValueType::kFloat64: {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.17g", f);
      return buf;
    }
    case ValueType::kBool: return b ? "true" : "false";
    case ValueType::kString: return s;
    case ValueType::kTimestamp: return FormatRfc3339(i);
  }
  return "?";
}

namespace {
int CompareDoubles(double a, double b) {
  bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}
}  // namespace

int CompareValues(const Value& a, const Value& b) {
  if (a.type == ValueType::kString || b.type == ValueType::kString) {
    int c = a.s.compare(b.s);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  auto int_like = [](ValueType t) {
    return t == ValueType::kInt64 || t == ValueType::kTimestamp || t == ValueType::kBool;
  };
  if (int_like(a.type) && int_like(b.type)) {
    int64_t x = a.type == ValueType::kBool ? a.b : a.i;
    int64_t y = b.type == ValueType::kBool ? b.b : b.i;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.type == ValueType::kUInt64 && b.type == ValueType::kUInt64) {
    return a.u < b.u ? -1 : (a.u > b.u ? 1 : 0);
  }
  return CompareDoubles(a.AsDouble(), b.AsDouble());
}

bool ValuesEqual(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return CompareValues(a, b) == 0;
}

void InitVector(Vector* v, ValueType type, size_t reserve) {
  *v = Vector{};
  v->type = type;
  switch (type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: v->i64.reserve(reserve); break;
    case ValueType::kFloat64: v->f64.reserve(reserve); break;
    case ValueType::kUInt64: v->u64.reserve(reserve); break;
    case ValueType::kBool: v->b.reserve(reserve); break;
    case ValueType::kString: v->str.reserve(reserve); break;
    case ValueType::kNull: break;
  }
}

size_t VectorSize(const Vector& v) {
  switch (v.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: return v.i64.size();
    case ValueType::kFloat64: return v.f64.size();
    case ValueType::kUInt64: return v.u64.size();
    case ValueType::kBool: return v.b.size();
    case ValueType::kString: return v.str.size();
    case ValueType::kNull: return v.validity.size();
  }
  return 0;
}

Value GetValue(const Vector& v, size_t row) {
  if (v.type == ValueType::kNull || v.IsNull(row)) return Value::Null();
  switch (v.type) {
    case ValueType::kInt64: return Value::Int(v.i64[row]);
    case ValueType::kTimestamp: return Value::Timestamp(v.i64[row]);
    case ValueType::kFloat64: return Value::Float(v.f64[row]);
    case ValueType::kUInt64: return Value::UInt(v.u64[row]);
    case ValueType::kBool: return Value::Bool(v.b[row] != 0);
    case ValueType::kString: return Value::String(std::string(v.StrAt(row)));
    default: return Value::Null();
  }
}

void MarkValidAt(Vector* v, size_t row, bool valid) {
  if (valid && v->validity.empty()) return;
  if (v->validity.empty()) v->validity.assign(row, 1);
  v->validity.push_back(valid ? 1 : 0);
}

static void MarkValid(Vector* v, bool valid) { MarkValidAt(v, VectorSize(*v), valid); }

void AppendNull(Vector* v) {
  if (v->type == ValueType::kNull) {
    v->validity.push_back(0);
    return;
  }
  MarkValid(v, false);
  switch (v->type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: v->i64.push_back(0); break;
    case ValueType::kFloat64: v->f64.push_back(0); break;
    case ValueType::kUInt64: v->u64.push_back(0); break;
    case ValueType::kBool: v->b.push_back(0); break;
    case ValueType::kString: v->str.emplace_back(); break;
    default: break;
  }
}

void AppendValue(Vector* v, const Value& value) {
  if (value.is_null()) {
    AppendNull(v);
    return;
  }
  MarkValid(v, true);
  switch (v->type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp:
      v->i64.push_back(value.type == ValueType::kFloat64 ? static_cast<int64_t>(value.f) : value.i);
      break;
    case ValueType::kFloat64: v->f64.push_back(value.AsDouble()); break;
    case ValueType::kUInt64: v->u64.push_back(value.u); break;
    case ValueType::kBool: v->b.push_back(value.b ? 1 : 0); break;
    case ValueType::kString: v->str.push_back(value.s); break;
    case ValueType::kNull: v->validity.push_back(0); break;
  }
}

void AppendValue(Vector* v, Value&& value) {
  if (v->type == ValueType::kString && value.type == ValueType::kString) {
    MarkValid(v, true);
    v->str.push_back(std::move(value.s));
    return;
  }
  AppendValue(v, static_cast<const Value&>(value));
}

void AppendFrom(Vector* dst, const Vector& src, size_t row) {
  bool valid = !src.IsNull(row) && src.type != ValueType::kNull;
  if (!valid) {
    AppendNull(dst);
    return;
  }
  MarkValid(dst, true);
  switch (src.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: dst->i64.push_back(src.i64[row]); break;
    case ValueType::kFloat64: dst->f64.push_back(src.f64[row]); break;
    case ValueType::kUInt64: dst->u64.push_back(src.u64[row]); break;
    case ValueType::kBool: dst->b.push_back(src.b[row]); break;
    case ValueType::kString: dst->str.push_back(src.str[row]); break;
    default: break;
  }
}

void FillConstant(Vector* v, ValueType type, const Value& value, size_t n) {
  InitVector(v, type, n);
  if (value.is_null()) {
    switch (type) {
      case ValueType::kInt64:
      case ValueType::kTimestamp: v->i64.assign(n, 0); break;
      case ValueType::kFloat64: v->f64.assign(n, 0); break;
      case ValueType::kUInt64: v->u64.assign(n, 0); break;
      case ValueType::kBool: v->b.assign(n, 0); break;
      case ValueType::kString: v->str.assign(n, ""); break;
      default: break;
    }
    v->validity.assign(n, 0);
    return;
  }
  switch (type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: v->i64.assign(n, value.i); break;
    case ValueType::kFloat64: v->f64.assign(n, value.AsDouble()); break;
    case ValueType::kUInt64: v->u64.assign(n, value.u); break;
    case ValueType::kBool: v->b.assign(n, value.b); break;
    case ValueType::kString: v->str.assign(n, value.s); break;
    default: v->validity.assign(n, 0); break;
  }
}

}  // namespace gnomon::query
