#include "src/query/parser/time_literal.h"

#include <cctype>
#include <limits>
#include <string>

#include "src/base/ascii.h"
#include "src/base/time_util.h"

namespace gnomon::query {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void Skip() { ++pos_; }
  size_t pos() const { return pos_; }
  void SkipSpaces() {
    while (!AtEnd() && text_[pos_] == ' ') ++pos_;
  }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  // Exactly `n` digits.
  bool Digits(int n, int64_t* out) {
    int64_t v = 0;
    for (int k = 0; k < n; ++k) {
      char c = Peek();
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
      ++pos_;
    }
    *out = v;
    return true;
  }
  bool ConsumeWordIgnoreCase(std::string_view word) {
    if (text_.size() - pos_ < word.size()) return false;
    for (size_t k = 0; k < word.size(); ++k) {
      if (AsciiUpper(text_[pos_ + k]) != word[k]) return false;
    }
    pos_ += word.size();
    return true;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

}  // namespace

Result<int64_t> ParseTimeLiteral(std::string_view raw) {
  std::string_view text = raw;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  auto fail = [&](std::string_view why) {
    return Status::InvalidArgument("invalid timestamp '" + std::string(raw) + "': " +
                                   std::string(why));
  };
  Scanner s(text);
  int64_t year, month, day;
  if (!s.Digits(4, &year) || !s.Consume('-') || !s.Digits(2, &month) || !s.Consume('-') ||
      !s.Digits(2, &day)) {
    return fail("expected YYYY-MM-DD");
  }
  if (month < 1 || month > 12) return fail("month out of range");
  if (day < 1 || day > DaysInMonth(year, month)) return fail("day out of range for the month");

  int64_t hour = 0, minute = 0, second = 0, frac_nanos = 0, offset_seconds = 0;
  if (!s.AtEnd()) {
    char sep = s.Peek();
    if (sep != 'T' && sep != 't' && sep != ' ') return fail("expected 'T' or ' ' after the date");
    s.Skip();
    s.SkipSpaces();
    if (!s.Digits(2, &hour) || !s.Consume(':') || !s.Digits(2, &minute)) {
      return fail("expected HH:MM after the date");
    }
    if (s.Consume(':')) {
      if (!s.Digits(2, &second)) return fail("expected two-digit seconds");
      if (s.Peek() == '.' || s.Peek() == ',') {
        s.Skip();
        int digits = 0;
        while (s.Peek() >= '0' && s.Peek() <= '9') {
          if (++digits > 9) return fail("more than 9 fraction digits");
          frac_nanos = frac_nanos * 10 + (s.Peek() - '0');
          s.Skip();
        }
        if (digits == 0) return fail("expected digits after the decimal point");
        for (int k = digits; k < 9; ++k) frac_nanos *= 10;
      }
    }
    if (hour > 23) return fail("hour out of range");
    if (minute > 59) return fail("minute out of range");
    if (second > 59) return fail("second out of range");

    s.SkipSpaces();
    if (s.Consume('Z') || s.Consume('z') || s.ConsumeWordIgnoreCase("UTC")) {
      // UTC
    } else if (s.Peek() == '+' || s.Peek() == '-') {
      const int64_t sign = s.Peek() == '-' ? -1 : 1;
      s.Skip();
      int64_t oh = 0, om = 0;
      if (!s.Digits(2, &oh)) return fail("expected a zone offset +hh, +hhmm or +hh:mm");
      if (!s.AtEnd()) {
        s.Consume(':');
        if (!s.Digits(2, &om)) return fail("expected a zone offset +hh, +hhmm or +hh:mm");
      }
      if (oh > 15 || om > 59) return fail("zone offset out of range");
      offset_seconds = sign * (oh * 3600 + om * 60);
    }
    if (!s.AtEnd()) return fail("unexpected text after the time");
  }

  // Every input here is within +-10^4 years, so the seconds fit easily; the nanosecond total is
  // checked in 128 bits (the lowest representable instant has a fraction, so scaling the
  // seconds alone would overflow too early).
  const int64_t seconds = DaysFromCivil(year, static_cast<unsigned>(month),
                                        static_cast<unsigned>(day)) * 86400 +
                          hour * 3600 + minute * 60 + second - offset_seconds;
  const __int128 total = static_cast<__int128>(seconds) * kNanosPerSecond + frac_nanos;
  if (total > std::numeric_limits<int64_t>::max() || total < std::numeric_limits<int64_t>::min()) {
    return Status::OutOfRange("timestamp '" + std::string(raw) +
                              "' is outside the int64 nanosecond range (1677..2262)");
  }
  const int64_t nanos = static_cast<int64_t>(total);
  return nanos;
}

}  // namespace gnomon::query
