// Value: one scalar of any SQL type (constants, group keys, aggregate results).
#pragma once

#include <cstdint>
#include <string>

#include "src/base/value_type.h"
#include "src/query/result.h"

namespace gnomon::query {

struct Value {
  ValueType type = ValueType::kNull;  // kNull: SQL NULL
  int64_t i = 0;                      // kInt64, kTimestamp
  double f = 0;
  uint64_t u = 0;
  bool b = false;
  std::string s;

  bool is_null() const { return type == ValueType::kNull; }
  static Value Null() { return Value(); }
  static Value Int(int64_t v) { Value x; x.type = ValueType::kInt64; x.i = v; return x; }
  static Value Timestamp(int64_t v) { Value x; x.type = ValueType::kTimestamp; x.i = v; return x; }
  static Value Float(double v) { Value x; x.type = ValueType::kFloat64; x.f = v; return x; }
  static Value UInt(uint64_t v) { Value x; x.type = ValueType::kUInt64; x.u = v; return x; }
  static Value Bool(bool v) { Value x; x.type = ValueType::kBool; x.b = v; return x; }
  static Value String(std::string v) { Value x; x.type = ValueType::kString; x.s = std::move(v); return x; }

  // Numeric view (ints, uints, floats, bools, timestamps as their int64).
  double AsDouble() const;
  std::string ToString() const;
};

bool IsNumeric(ValueType t);
// Three-way comparison of two non-null values of comparable types (numbers with numbers,
// strings with strings, timestamps with timestamps or ints). NaN sorts after every number.
int CompareValues(const Value& a, const Value& b);
bool ValuesEqual(const Value& a, const Value& b);

// Vector helpers (a vector is a ResultVector: typed storage plus optional validity).
using Vector = ResultVector;
using Chunk = ResultChunk;

void InitVector(Vector* v, ValueType type, size_t reserve = 0);
Value GetValue(const Vector& v, size_t row);
// Appends `value` (which must be NULL or of v's type) to v.
void AppendValue(Vector* v, const Value& value);
// The same, moving a string value's bytes.
void AppendValue(Vector* v, Value&& value);
void AppendNull(Vector* v);
// Records whether row `row` (== the rows v's validity describes so far) holds a value; the
// validity vector is only materialised at the first NULL.
void MarkValidAt(Vector* v, size_t row, bool valid);
size_t VectorSize(const Vector& v);
// Appends row `row` of src to dst (same type).
void AppendFrom(Vector* dst, const Vector& src, size_t row);
// A vector of n copies of `value` with the given type.
void FillConstant(Vector* v, ValueType type, const Value& value, size_t n);

}  // namespace gnomon::query
