#include "src/server/ingest/line_protocol_parser.h"

#include <charconv>
#include <cstring>
#include <string>
#include <system_error>

#include "src/base/ascii.h"
#include "src/server/ingest/byte_scan.h"
#include "src/server/ingest/utf8.h"

namespace gnomon::server {
namespace {

using internal::FindAny2;
using internal::FindAny4;
using internal::FindByte;

inline bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Parses the run of decimal digits at p (stopping at `end` or the first non-digit) into *v.
// Returns the end of the run; *overflow is set when the value does not fit in uint64. Eight
// digits at a time with SWAR arithmetic (timestamps have 19), then one at a time.
inline const char* ParseDigits(const char* p, const char* end, uint64_t* v, bool* overflow) {
  const char* const start = p;
  uint64_t acc = 0;
  // Two SWAR steps at most: 16 digits cannot overflow.
  for (int step = 0; step < 2 && end - p >= 8; ++step) {
    uint64_t chunk;
    std::memcpy(&chunk, p, 8);
    // All eight bytes in '0'..'9'? (high nibble 3, and adding 6 does not carry out of the nibble)
    if ((((chunk & 0xF0F0F0F0F0F0F0F0ULL) |
          (((chunk + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4))) !=
        0x3333333333333333ULL) {
      break;
    }
    chunk = (chunk & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
    chunk = (chunk & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    chunk = (chunk & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
    acc = acc * 100000000 + chunk;
    p += 8;
  }
  while (p < end && AsciiIsDigit(*p)) {
    acc = acc * 10 + static_cast<uint64_t>(*p - '0');
    ++p;
  }
  const size_t n = static_cast<size_t>(p - start);
  if (n > 19) {
    // 20 digits may still fit in uint64; redo them with overflow checks.
    bool of = false;
    uint64_t checked = 0;
    for (const char* q = start; q < p; ++q) {
      of |= __builtin_mul_overflow(checked, 10, &checked);
      of |= __builtin_add_overflow(checked, static_cast<uint64_t>(*q - '0'), &checked);
    }
    acc = checked;
    *overflow = of;
  } else {
    *overflow = false;
  }
  *v = acc;
  return p;
}

// Clinger's fast path for a plain decimal "int.frac" of at most 18 digits whose mantissa m is at
// most 2^53: m and 10^k are exact doubles, so the one correctly rounded division m / 10^k is the
// correctly rounded value of the decimal, the same double std::from_chars gives. `frac` points
// after the '.', `int_part` holds the value of the `int_digits` digits before it. Returns false
// (nothing consumed) for anything else, which then goes to std::from_chars.
inline bool TryParseDecimal(const char* frac, const char* end, uint64_t int_part,
                            bool int_overflow, size_t int_digits, bool negative, double* out,
                            const char** next) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,
                                      1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13,
                                      1e14, 1e15, 1e16, 1e17, 1e18};
  static constexpr uint64_t kPow10Int[] = {1,          10,          100,         1000,
                                           10000,      100000,      1000000,     10000000,
                                           100000000,  1000000000,  10000000000, 100000000000,
                                           1000000000000, 10000000000000, 100000000000000,
                                           1000000000000000, 10000000000000000,
                                           100000000000000000, 1000000000000000000};
  uint64_t frac_part;
  bool frac_overflow;
  const char* e = ParseDigits(frac, end, &frac_part, &frac_overflow);
  const size_t frac_digits = static_cast<size_t>(e - frac);
  if (frac_digits == 0 || int_overflow || int_digits + frac_digits > 18) return false;
  if (e < end && *e != ',' && *e != ' ') return false;
  const uint64_t m = int_part * kPow10Int[frac_digits] + frac_part;  // < 10^18: no overflow
  if (m > (uint64_t{1} << 53)) return false;
  const double x = static_cast<double>(m) / kPow10[frac_digits];
  *out = negative ? -x : x;
  *next = e;
  return true;
}

// A token quoted for an error message, cut to a readable length.
std::string Quote(const char* b, const char* e) {
  std::string_view token(b, static_cast<size_t>(e - b));
  std::string_view cut = internal::TruncateUtf8(token, 64);
  std::string out(cut);
  if (cut.size() < token.size()) out += "...";
  return out;
}

bool Fail(LineSyntaxError* error, uint32_t offset, std::string reason) {
  error->offset = offset;
  error->reason = std::move(reason);
  return false;
}

// Past the end of a backslash escape that starts at p (the backslash and the byte it escapes).
inline const char* SkipEscape(const char* p, const char* end) { return end - p >= 2 ? p + 2 : end; }

template <bool (*kEscapable)(char)>
size_t UnescapeWith(std::string_view in, char* out) {
  size_t n = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '\\' && i + 1 < in.size() && kEscapable(in[i + 1])) c = in[++i];
    out[n++] = c;
  }
  return n;
}

bool MeasurementEscapable(char c) { return c == ',' || c == ' ' || c == '\\'; }
bool NameEscapable(char c) { return c == ',' || c == '=' || c == ' ' || c == '\\'; }
bool StringEscapable(char c) { return c == '"' || c == '\\'; }

bool ParseBool(std::string_view t, bool* out) {
  switch (t.size()) {
    case 1:
      if (t[0] == 't' || t[0] == 'T') return *out = true, true;
      if (t[0] == 'f' || t[0] == 'F') return *out = false, true;
      return false;
    case 4:
      if (t == "true" || t == "True" || t == "TRUE") return *out = true, true;
      return false;
    case 5:
      if (t == "false" || t == "False" || t == "FALSE") return *out = false, true;
      return false;
    default:
      return false;
  }
}

}  // namespace

size_t UnescapeMeasurement(std::string_view in, char* out) {
  return UnescapeWith<MeasurementEscapable>(in, out);
}
size_t UnescapeName(std::string_view in, char* out) { return UnescapeWith<NameEscapable>(in, out); }
size_t UnescapeStringValue(std::string_view in, char* out) {
  return UnescapeWith<StringEscapable>(in, out);
}

bool LineParser::Parse(std::string_view line, ParsedLine* out, LineSyntaxError* error) {
  const char* const begin = line.data();
  const char* end = begin + line.size();
  auto off = [begin](const char* at) { return static_cast<uint32_t>(at - begin); };
  // Trailing blanks never belong to a valid token (a value or timestamp ends every valid line),
  // so they can be cut before tokenising.
  while (end > begin && IsBlank(end[-1])) --end;
  const char* p = begin;
  while (p < end && IsBlank(*p)) ++p;

  // Unescaped text is never longer than its source, so one line's worth of scratch suffices and
  // views into it stay valid for the whole line.
  if (field_scratch_.size() < line.size()) field_scratch_.resize(line.size());
  char* scratch = field_scratch_.data();

  // Series key: everything up to the first unescaped space.
  const char* key_begin = p;
  const char* q = internal::SeriesKeyEnd(key_begin, end);
  if (q == key_begin) return Fail(error, off(q), "missing measurement");
  out->series_key = std::string_view(key_begin, static_cast<size_t>(q - key_begin));
  out->series_key_offset = off(key_begin);
  p = q;
  while (p < end && IsBlank(*p)) ++p;
  if (p == end) return Fail(error, off(p), "missing field set");

  // Field set: key=value pairs separated by commas, ended by a space or the end of the line.
  out->fields.clear();
  for (;;) {
    const char* key_start = p;
    bool key_escaped = false;
    const char* k = p;
    for (;;) {
      k = FindAny4(k, end, '=', ',', ' ', '\\');
      if (k == end || *k != '\\') break;
      key_escaped = true;
      k = SkipEscape(k, end);
    }
    if (k == key_start) return Fail(error, off(k), "missing field key");
    if (k == end || *k != '=') {
      if (out->fields.empty()) return Fail(error, off(key_start), "missing field set");
      return Fail(error, off(k), "missing '=' after field key \"" + Quote(key_start, k) + "\"");
    }
    ParsedField& f = out->fields.emplace_back();
    f.offset = off(key_start);
    if (key_escaped) {
      size_t n = UnescapeName(std::string_view(key_start, static_cast<size_t>(k - key_start)),
                              scratch);
      f.key = std::string_view(scratch, n);
      scratch += n;
    } else {
      f.key = std::string_view(key_start, static_cast<size_t>(k - key_start));
    }

    p = k + 1;
    if (p == end || *p == ',' || *p == ' ') {
      return Fail(error, off(p), "missing value for field \"" + std::string(f.key) + "\"");
    }
    const char c = *p;
    if (c == '"') {
      const char* s = p + 1;
      const char* t = s;
      bool str_escaped = false;
      for (;;) {
        t = FindAny2(t, end, '"', '\\');
        if (t == end) return Fail(error, off(p), "unterminated string value");
        if (*t == '"') break;
        str_escaped = true;
        t = SkipEscape(t, end);
      }
      f.type = ValueType::kString;
      std::string_view raw(s, static_cast<size_t>(t - s));
      if (str_escaped) {
        size_t n = UnescapeStringValue(raw, scratch);
        f.str = std::string_view(scratch, n);
        scratch += n;
      } else {
        f.str = raw;
      }
      p = t + 1;
      if (p < end && *p != ',' && *p != ' ') {
        return Fail(error, off(p), "unexpected character after string value of field \"" +
                                       std::string(f.key) + "\"");
      }
    } else if (AsciiIsDigit(c) || c == '-' || c == '.') {
      const char* tok = p;
      const bool negative = c == '-';
      if (negative) ++p;
      const char* digits = p;
      uint64_t v;
      bool overflow;
      p = ParseDigits(p, end, &v, &overflow);
      const bool have_digits = p != digits;
      const char t = p < end ? *p : ' ';
      if (t == 'i' || t == 'u') {
        const char* after = p + 1;
        if (!have_digits || (after < end && *after != ',' && *after != ' ')) {
          const char* e = FindAny2(p, end, ',', ' ');
          return Fail(error, off(tok),
                      "invalid field value: " + Quote(tok, e) + " is not a number");
        }
        if (t == 'i') {
          const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
          if (overflow || v > limit) {
            return Fail(error, off(tok), "integer out of range: " + Quote(tok, after));
          }
          f.type = ValueType::kInt64;
          f.i64 = static_cast<int64_t>(negative ? 0 - v : v);
        } else {
          if (negative) {
            return Fail(error, off(tok), "unsigned integer cannot be negative: " + Quote(tok, after));
          }
          if (overflow) {
            return Fail(error, off(tok), "unsigned integer out of range: " + Quote(tok, after));
          }
          f.type = ValueType::kUInt64;
          f.u64 = v;
        }
        p = after;
      } else if (t == ',' || t == ' ') {
        if (!have_digits) {
          return Fail(error, off(tok), "invalid field value: " + Quote(tok, p) + " is not a number");
        }
        f.type = ValueType::kFloat64;
        if (!overflow && v <= (uint64_t{1} << 53)) {
          // Exactly representable: no rounding question, skip the general parser.
          f.f64 = negative ? -static_cast<double>(v) : static_cast<double>(v);
        } else {
          std::from_chars(tok, p, f.f64);  // 20+ digits: let the correctly-rounding parser do it
        }
      } else if (t == '.' && TryParseDecimal(p + 1, end, v, overflow, static_cast<size_t>(p - digits),
                                             negative, &f.f64, &p)) {
        f.type = ValueType::kFloat64;
      } else {
        // An exponent, a long mantissa or garbage: the whole token goes to the correctly-rounding
        // parser.
        const char* e = FindAny2(p, end, ',', ' ');
        if (!have_digits && *digits != '.') {
          return Fail(error, off(tok), "invalid field value: " + Quote(tok, e) + " is not a number");
        }
        auto [ptr, ec] = std::from_chars(tok, e, f.f64);
        if (ec == std::errc::result_out_of_range) {
          return Fail(error, off(tok), "float out of range: " + Quote(tok, e));
        }
        if (ec != std::errc() || ptr != e) {
          return Fail(error, off(tok), "invalid field value: " + Quote(tok, e) + " is not a number");
        }
        f.type = ValueType::kFloat64;
        p = e;
      }
    } else {
      const char* e = FindAny2(p, end, ',', ' ');
      bool b;
      if ((c == 't' || c == 'T' || c == 'f' || c == 'F') &&
          ParseBool(std::string_view(p, static_cast<size_t>(e - p)), &b)) {
        f.type = ValueType::kBool;
        f.b = b;
        p = e;
      } else {
        return Fail(error, off(p),
                    "invalid field value: " + Quote(p, e) +
                        " is not a number, boolean or double-quoted string");
      }
    }

    if (p == end || *p == ' ') break;
    ++p;  // the comma before the next field
  }

  // Optional timestamp: a signed decimal integer, then only blanks.
  while (p < end && IsBlank(*p)) ++p;
  out->has_timestamp = false;
  if (p == end) return true;
  const char* ts = p;
  const bool negative = *p == '-';
  if (negative) ++p;
  const char* digits = p;
  uint64_t v;
  bool overflow;
  p = ParseDigits(p, end, &v, &overflow);
  if (p == digits || (p < end && !IsBlank(*p))) {
    const char* e = FindAny2(p, end, ' ', '\t');
    return Fail(error, off(ts), "invalid timestamp: " + Quote(ts, e));
  }
  const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
  if (overflow || v > limit) {
    return Fail(error, off(ts), "timestamp out of range: " + Quote(ts, p));
  }
  out->has_timestamp = true;
  out->timestamp = static_cast<int64_t>(negative ? 0 - v : v);
  out->timestamp_offset = off(ts);
  while (p < end && IsBlank(*p)) ++p;
  if (p != end) return Fail(error, off(p), "unexpected text after timestamp");
  return true;
}

bool LineParser::ParseSeriesKey(std::string_view series_key, uint32_t key_offset,
                                std::string_view* measurement, std::vector<ParsedTag>* tags,
                                LineSyntaxError* error) {
  const char* const begin = series_key.data();
  const char* const end = begin + series_key.size();
  auto off = [begin, key_offset](const char* at) {
    return key_offset + static_cast<uint32_t>(at - begin);
  };
  if (key_scratch_.size() < series_key.size()) key_scratch_.resize(series_key.size());
  char* scratch = key_scratch_.data();
  auto take = [&scratch](const char* b, const char* e, bool escaped,
                         size_t (*unescape)(std::string_view, char*)) {
    std::string_view raw(b, static_cast<size_t>(e - b));
    if (!escaped) return raw;
    size_t n = unescape(raw, scratch);
    std::string_view out(scratch, n);
    scratch += n;
    return out;
  };

  // Measurement: up to the first unescaped comma.
  const char* p = begin;
  bool escaped = false;
  for (;;) {
    p = FindAny2(p, end, ',', '\\');
    if (p == end || *p == ',') break;
    escaped = true;
    p = SkipEscape(p, end);
  }
  if (p == begin) return Fail(error, off(p), "missing measurement");
  *measurement = take(begin, p, escaped, &UnescapeMeasurement);

  tags->clear();
  while (p < end) {  // *p == ','
    const char* key_start = ++p;
    escaped = false;
    for (;;) {
      p = FindAny4(p, end, '=', ',', '\\', '\\');
      if (p == end || *p != '\\') break;
      escaped = true;
      p = SkipEscape(p, end);
    }
    if (p == key_start) return Fail(error, off(p), "missing tag key");
    if (p == end || *p != '=') {
      return Fail(error, off(key_start),
                  "tag key \"" + Quote(key_start, p) + "\" has no value (missing '=')");
    }
    std::string_view key = take(key_start, p, escaped, &UnescapeName);
    const char* value_start = ++p;
    escaped = false;
    for (;;) {
      p = FindAny4(p, end, ',', '=', '\\', '\\');
      if (p == end || *p == ',') break;
      if (*p == '=') {
        return Fail(error, off(p), "unescaped '=' in value of tag \"" + std::string(key) + "\"");
      }
      escaped = true;
      p = SkipEscape(p, end);
    }
    if (p == value_start) {
      return Fail(error, off(p), "missing value for tag \"" + std::string(key) + "\"");
    }
    std::string_view value = take(value_start, p, escaped, &UnescapeName);
    tags->push_back(ParsedTag{key, value, off(key_start)});
  }
  return true;
}

}  // namespace gnomon::server
