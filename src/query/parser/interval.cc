#include "src/query/parser/interval.h"

#include <array>
#include <cctype>
#include <limits>

#include "src/base/ascii.h"
#include "src/base/time_util.h"
#include "src/query/parser/token.h"

namespace gnomon::query {
namespace {

struct UnitName {
  std::string_view name;
  int64_t nanos;  // 0: a calendar unit without a fixed length
};

constexpr int64_t kNanosPerWeek = 7 * kNanosPerDay;

constexpr std::array<UnitName, 47> kUnits = {{
    {"ns", 1}, {"nsec", 1}, {"nsecs", 1}, {"nanosecond", 1}, {"nanoseconds", 1},
    {"us", kNanosPerMicro}, {"\xc2\xb5s", kNanosPerMicro}, {"usec", kNanosPerMicro},
    {"usecs", kNanosPerMicro}, {"microsecond", kNanosPerMicro}, {"microseconds", kNanosPerMicro},
    {"ms", kNanosPerMilli}, {"msec", kNanosPerMilli}, {"msecs", kNanosPerMilli},
    {"millisecond", kNanosPerMilli}, {"milliseconds", kNanosPerMilli},
    {"s", kNanosPerSecond}, {"sec", kNanosPerSecond}, {"secs", kNanosPerSecond},
    {"second", kNanosPerSecond}, {"seconds", kNanosPerSecond},
    {"m", kNanosPerMinute}, {"min", kNanosPerMinute}, {"mins", kNanosPerMinute},
    {"minute", kNanosPerMinute}, {"minutes", kNanosPerMinute},
    {"h", kNanosPerHour}, {"hr", kNanosPerHour}, {"hrs", kNanosPerHour},
    {"hour", kNanosPerHour}, {"hours", kNanosPerHour},
    {"d", kNanosPerDay}, {"day", kNanosPerDay}, {"days", kNanosPerDay},
    {"w", kNanosPerWeek}, {"week", kNanosPerWeek}, {"weeks", kNanosPerWeek},
    {"mon", 0}, {"mons", 0}, {"month", 0}, {"months", 0},
    {"y", 0}, {"yr", 0}, {"yrs", 0}, {"year", 0}, {"years", 0}, {"decade", 0},
}};

bool IsUnitChar(char c) {
  return AsciiIsAlpha(c) || static_cast<unsigned char>(c) >= 0x80;
}

Status Invalid(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("invalid interval '" + std::string(text) + "': " +
                                 std::string(why));
}

using Int128 = __int128;
constexpr Int128 kMaxTotal = std::numeric_limits<int64_t>::max();

// A decimal number "123" or "1.25": integer part and up to 9 fraction digits (more truncate).
struct Decimal {
  Int128 whole = 0;
  int64_t frac = 0;       // fraction digits as an integer
  int frac_digits = 0;    // how many digits `frac` holds (<= 9)
  bool has_point = false;
};

// Reads digits at text[*pos]; returns false when there are none. Saturates large values, which
// the caller then rejects as out of range.
bool ReadDecimal(std::string_view text, size_t* pos, Decimal* d) {
  size_t i = *pos;
  bool any = false;
  while (i < text.size() && AsciiIsDigit(text[i])) {
    if (d->whole <= kMaxTotal) d->whole = d->whole * 10 + (text[i] - '0');
    ++i;
    any = true;
  }
  if (i < text.size() && text[i] == '.') {
    d->has_point = true;
    ++i;
    while (i < text.size() && AsciiIsDigit(text[i])) {
      if (d->frac_digits < 9) {
        d->frac = d->frac * 10 + (text[i] - '0');
        ++d->frac_digits;
      }
      ++i;
      any = true;
    }
  }
  *pos = i;
  return any;
}

// value * unit, exactly to the nanosecond (fraction digits below 1 ns truncate toward zero).
Int128 Scale(const Decimal& d, int64_t unit) {
  Int128 v = d.whole * unit;
  Int128 pow10 = 1;
  for (int k = 0; k < d.frac_digits; ++k) pow10 *= 10;
  return v + (static_cast<Int128>(d.frac) * unit) / pow10;
}

// "hh:mm[:ss[.fffffffff]]" starting at text[*pos], whose leading number `hours` is already read.
Result<Int128> ReadClock(std::string_view text, size_t* pos, Int128 hours) {
  size_t i = *pos;  // at ':'
  Int128 total = hours * kNanosPerHour;
  auto two_digits = [&](int64_t* out) {
    if (i + 2 > text.size() || !AsciiIsDigit(text[i]) || !AsciiIsDigit(text[i + 1])) return false;
    *out = (text[i] - '0') * 10 + (text[i + 1] - '0');
    i += 2;
    return true;
  };
  int64_t minutes = 0, seconds = 0;
  ++i;
  if (!two_digits(&minutes) || minutes > 59) return Invalid(text, "bad minutes in hh:mm:ss");
  total += minutes * kNanosPerMinute;
  if (i < text.size() && text[i] == ':') {
    ++i;
    if (!two_digits(&seconds) || seconds > 59) return Invalid(text, "bad seconds in hh:mm:ss");
    total += seconds * kNanosPerSecond;
    if (i < text.size() && text[i] == '.') {
      Decimal frac;
      if (!ReadDecimal(text, &i, &frac) || frac.whole != 0) {
        return Invalid(text, "bad fraction in hh:mm:ss");
      }
      total += Scale(frac, kNanosPerSecond);
    }
  }
  *pos = i;
  return total;
}

}  // namespace

Result<int64_t> ParseInterval(std::string_view text) {
  Int128 total = 0;
  size_t i = 0;
  int components = 0;
  bool bare_number = false;  // the previous component was a number without a unit
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) break;
    if (bare_number) return Invalid(text, "a number without a unit must stand alone");
    int sign = 1;
    if (text[i] == '+' || text[i] == '-') {
      sign = text[i] == '-' ? -1 : 1;
      ++i;
    }
    Decimal number;
    if (!ReadDecimal(text, &i, &number)) {
      return Invalid(text, "expected a number at offset " + std::to_string(i));
    }
    if (number.whole > kMaxTotal) return Status::OutOfRange("interval '" + std::string(text) +
                                                            "' is out of range");
    Int128 value;
    if (i < text.size() && text[i] == ':' && !number.has_point) {
      GNOMON_ASSIGN_OR_RETURN(value, ReadClock(text, &i, number.whole));
    } else {
      while (i < text.size() && text[i] == ' ') ++i;
      size_t unit_start = i;
      while (i < text.size() && IsUnitChar(text[i])) ++i;
      std::string_view unit = text.substr(unit_start, i - unit_start);
      if (unit.empty()) {
        if (components > 0) return Invalid(text, "missing unit after a number");
        bare_number = true;  // PostgreSQL reads '60' as 60 seconds
        value = Scale(number, kNanosPerSecond);
      } else {
        const UnitName* found = nullptr;
        for (const UnitName& u : kUnits) {
          if (EqualsIgnoreCase(u.name, unit)) found = &u;
        }
        if (found == nullptr) return Invalid(text, "unknown unit '" + std::string(unit) + "'");
        if (found->nanos == 0) {
          return Invalid(text, "unit '" + std::string(unit) +
                                   "' has no fixed length; use days or weeks");
        }
        value = Scale(number, found->nanos);
      }
    }
    total += sign * value;
    if (total > kMaxTotal || total < -kMaxTotal - 1) {
      return Status::OutOfRange("interval '" + std::string(text) + "' is out of range");
    }
    ++components;
  }
  if (components == 0) return Invalid(text, "empty interval");
  return static_cast<int64_t>(total);
}

std::string FormatInterval(int64_t nanos) {
  if (nanos == 0) return "0 seconds";
  // Work on the magnitude in unsigned arithmetic: INT64_MIN has no positive counterpart.
  const bool negative = nanos < 0;
  uint64_t v = negative ? 0 - static_cast<uint64_t>(nanos) : static_cast<uint64_t>(nanos);
  std::string out;
  auto part = [&](uint64_t count, std::string_view unit) {
    if (count == 0) return;
    if (!out.empty()) out += ' ';
    if (negative) out += '-';
    out += std::to_string(count);
    out += ' ';
    out += unit;
    if (count != 1) out += 's';
  };
  part(v / kNanosPerDay, "day");
  v %= kNanosPerDay;
  part(v / kNanosPerHour, "hour");
  v %= kNanosPerHour;
  part(v / kNanosPerMinute, "minute");
  v %= kNanosPerMinute;
  part(v / kNanosPerSecond, "second");
  v %= kNanosPerSecond;
  if (v % kNanosPerMilli == 0) {
    part(v / kNanosPerMilli, "millisecond");
  } else if (v % kNanosPerMicro == 0) {
    part(v / kNanosPerMicro, "microsecond");
  } else {
    part(v, "nanosecond");
  }
  return out;
}

}  // namespace gnomon::query
