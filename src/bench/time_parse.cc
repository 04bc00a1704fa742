#include "src/bench/time_parse.h"

#include <string>

#include "src/base/time_util.h"

namespace gnomon::bench {
namespace {

Status BadTime(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("bad RFC 3339 time '" + std::string(text) + "': " + std::string(why));
}

// Reads exactly `n` digits at *pos.
bool ReadDigits(std::string_view s, size_t* pos, int n, int64_t* out) {
  if (*pos + n > s.size()) return false;
  int64_t v = 0;
  for (int i = 0; i < n; ++i) {
    char c = s[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

int DaysInMonth(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

Result<int64_t> ParseRfc3339Nanos(std::string_view s) {
  size_t pos = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!ReadDigits(s, &pos, 4, &year) || !Expect(s, &pos, '-') || !ReadDigits(s, &pos, 2, &month) ||
      !Expect(s, &pos, '-') || !ReadDigits(s, &pos, 2, &day)) {
    return BadTime(s, "expected YYYY-MM-DD");
  }
  if (pos >= s.size() || (s[pos] != 'T' && s[pos] != 't')) return BadTime(s, "expected 'T'");
  ++pos;
  if (!ReadDigits(s, &pos, 2, &hour) || !Expect(s, &pos, ':') || !ReadDigits(s, &pos, 2, &minute) ||
      !Expect(s, &pos, ':') || !ReadDigits(s, &pos, 2, &second)) {
    return BadTime(s, "expected hh:mm:ss");
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return BadTime(s, "field out of range");
  }
  int64_t frac_nanos = 0;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    ++pos;
    int digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 9) frac_nanos = frac_nanos * 10 + (s[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return BadTime(s, "empty fraction");
    for (int d = digits; d < 9; ++d) frac_nanos *= 10;
  }
  int64_t offset_seconds = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int sign = s[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t oh = 0, om = 0;
    if (!ReadDigits(s, &pos, 2, &oh) || !Expect(s, &pos, ':') || !ReadDigits(s, &pos, 2, &om) ||
        oh > 23 || om > 59) {
      return BadTime(s, "bad zone offset");
    }
    offset_seconds = sign * (oh * 3600 + om * 60);
  } else {
    return BadTime(s, "missing zone ('Z' or +hh:mm)");
  }
  if (pos != s.size()) return BadTime(s, "trailing characters");
  int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return secs * kNanosPerSecond + frac_nanos;
}

Result<int64_t> ParseGoDuration(std::string_view text) {
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument("bad duration '" + std::string(text) + "': " + std::string(why));
  };
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty()) return bad("empty");
  // Accumulate in long double: durations are < 2^63 ns, and the fractions TSBS users write
  // ("1.5h", "0.5s") are exact in it.
  long double total = 0;
  while (!s.empty()) {
    size_t i = 0;
    long double whole = 0;
    bool any = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      whole = whole * 10 + (s[i] - '0');
      ++i;
      any = true;
    }
    long double frac = 0, scale = 1;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        frac = frac * 10 + (s[i] - '0');
        scale *= 10;
        ++i;
        any = true;
      }
    }
    if (!any) return bad("expected a number");
    size_t u = i;
    while (u < s.size() && !(s[u] >= '0' && s[u] <= '9') && s[u] != '.') ++u;
    std::string_view unit = s.substr(i, u - i);
    long double mult;
    if (unit == "ns") mult = 1;
    else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") mult = 1e3L;
    else if (unit == "ms") mult = 1e6L;
    else if (unit == "s") mult = 1e9L;
    else if (unit == "m") mult = 60e9L;
    else if (unit == "h") mult = 3600e9L;
    else return bad(unit.empty() ? "missing unit" : "unknown unit");
    total += whole * mult + frac * mult / scale;
    if (total > 9.2e18L) return bad("overflow");
    s.remove_prefix(u);
  }
  int64_t nanos = static_cast<int64_t>(total);
  return negative ? -nanos : nanos;
}

}  // namespace gnomon::bench
