#include "src/bench/influx_serializer.h"

#include <charconv>
#include <cstring>

namespace gnomon::bench {
namespace {

// Decimal digits of numbers the shortest float formats can need: a float64 near 1e308 printed
// without exponent has 309 integer digits; tiny values like 5e-324 need 324 fraction digits plus
// "0.". 330 covers the longest shortest-round-trip fixed rendering (sign + 326).
constexpr size_t kMaxFloat64Chars = 330;
constexpr size_t kMaxFloat32Chars = 50;

inline char* Copy(char* out, std::string_view s) {
  std::memcpy(out, s.data(), s.size());
  return out + s.size();
}

}  // namespace

char* FormatInt64(int64_t v, char* out) { return std::to_chars(out, out + 20, v).ptr; }

char* FormatFloat64(double v, char* out) {
  // std::to_chars with chars_format::fixed and no precision gives the shortest digit string that
  // round-trips, in plain decimal notation: the same text as Go's FormatFloat(v, 'f', -1, 64).
  return std::to_chars(out, out + kMaxFloat64Chars, v, std::chars_format::fixed).ptr;
}

char* FormatFloat32(float v, char* out) {
  return std::to_chars(out, out + kMaxFloat32Chars, v, std::chars_format::fixed).ptr;
}

size_t InfluxLineBound(const Point& p) {
  size_t n = p.measurement().size() + 2 + 20 + 2;
  for (int i = 0; i < p.num_tags(); ++i) {
    n += p.tag_key(i).size() + 2 + (p.tag_value(i).kind == TagValue::Kind::kString
                                        ? p.tag_value(i).str.size()
                                        : kMaxFloat32Chars);
  }
  for (int i = 0; i < p.num_fields(); ++i) n += p.field_key(i).size() + 3 + kMaxFloat64Chars;
  return n;
}

char* AppendInfluxLine(const Point& p, char* const start) {
  char* out = Copy(start, p.measurement());
  bool has_fake_fields = false;
  for (int i = 0; i < p.num_tags(); ++i) {
    const TagValue& v = p.tag_value(i);
    if (v.kind == TagValue::Kind::kString) {
      *out++ = ',';
      out = Copy(out, p.tag_key(i));
      *out++ = '=';
      out = Copy(out, v.str);
    } else if (v.kind == TagValue::Kind::kFloat32) {
      has_fake_fields = true;
    }
  }
  if (has_fake_fields || p.num_fields() > 0) *out++ = ' ';
  bool first = true;
  if (has_fake_fields) {
    for (int i = 0; i < p.num_tags(); ++i) {
      const TagValue& v = p.tag_value(i);
      if (v.kind != TagValue::Kind::kFloat32) continue;
      if (!first) *out++ = ',';
      first = false;
      out = Copy(out, p.tag_key(i));
      *out++ = '=';
      out = FormatFloat32(v.f32, out);
    }
  }
  for (int i = 0; i < p.num_fields(); ++i) {
    const FieldValue& v = p.field_value(i);
    if (v.kind == FieldValue::Kind::kNull) continue;
    if (!first) *out++ = ',';
    first = false;
    out = Copy(out, p.field_key(i));
    *out++ = '=';
    if (v.kind == FieldValue::Kind::kInt64) {
      out = FormatInt64(v.i64, out);
      *out++ = 'i';
    } else {
      out = FormatFloat64(v.f64, out);
    }
  }
  if (first) return start;  // every field null: TSBS drops the line (Influx would reject it)
  *out++ = ' ';
  out = FormatInt64(p.timestamp(), out);
  *out++ = '\n';
  return out;
}

}  // namespace gnomon::bench
