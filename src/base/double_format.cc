#include "src/base/double_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <dragonbox/dragonbox.h>

namespace gnomon {
namespace {

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Writes the decimal digits of v (> 0) so that they end at `end`; returns where they start.
char* DigitsBackward(uint64_t v, char* end) {
  while (v >= 100) {
    const uint64_t q = v / 100;
    end -= 2;
    std::memcpy(end, kDigitPairs + 2 * (v - q * 100), 2);
    v = q;
  }
  if (v >= 10) {
    end -= 2;
    std::memcpy(end, kDigitPairs + 2 * v, 2);
  } else {
    *--end = static_cast<char>('0' + v);
  }
  return end;
}

int DecimalLength(int v) { return v >= 100 ? 3 : v >= 10 ? 2 : 1; }

// Copies a run of at most 24 characters with one fixed-size copy (a variable-length memcpy of a
// few bytes compiles to a slow `rep movs` here). Source and destination have room for 24.
inline void CopyRun(char* to, const char* from) { std::memcpy(to, from, 24); }

}  // namespace

char* FormatDouble(char* p, double value) {
  if (!std::isfinite(value)) return std::to_chars(p, p + kMaxDoubleChars, value).ptr;
  char text[64];  // built here, then stored at p with one fixed-size copy
  char* q = text;
  if (std::signbit(value)) *q++ = '-';
  if (value == 0) {
    *q++ = '0';
  } else {
    // value = ±significand × 10^exponent, significand without trailing zeros: the shortest
    // digits that read back as value (ties to the even digit, as Ryu and std::to_chars).
    const auto dec = jkj::dragonbox::to_decimal(value);
    char digit_buf[48];  // digits end at +24; 24 bytes past any digit stay readable
    char* const digits_end = digit_buf + 24;
    char* digits = DigitsBackward(dec.significand, digits_end);
    const int n = static_cast<int>(digits_end - digits);
    const int e = dec.exponent;
    const int sci_exponent = n - 1 + e;
    const int abs_exponent = sci_exponent < 0 ? -sci_exponent : sci_exponent;
    // Lengths of both notations (printf's %f and %e with just these digits); fixed wins ties.
    const int fixed_length = e >= 0 ? n + e : (n + e > 0 ? n + 1 : 2 - e);
    const int sci_length = n + (n > 1 ? 1 : 0) + 2 + std::max(2, DecimalLength(abs_exponent));
    if (fixed_length <= sci_length) {
      if (e >= 0) {
        // An integer: its exact digits, as std::to_chars writes them (they differ from the
        // shortest digits padded with zeros past 2^53). Fixed wins only below 10^22 < 2^74.
        const auto exact = static_cast<unsigned __int128>(std::fabs(value));
        if (exact == static_cast<uint64_t>(exact)) {
          digits = DigitsBackward(static_cast<uint64_t>(exact), digits_end);
        } else {
          constexpr uint64_t kTen19 = 10000000000000000000ull;
          char* low = DigitsBackward(static_cast<uint64_t>(exact % kTen19), digits_end);
          char* const low_start = digits_end - 19;  // the low part fills 19 digits
          while (low > low_start) *--low = '0';
          digits = DigitsBackward(static_cast<uint64_t>(exact / kTen19), low_start);
        }
        CopyRun(q, digits);
        q += digits_end - digits;
      } else if (n + e > 0) {  // ddd.ddd
        const int whole = n + e;
        CopyRun(q, digits);
        q += whole;
        *q++ = '.';
        CopyRun(q, digits + whole);
        q += n - whole;
      } else {  // 0.000ddd: at most 3 zeros, or scientific would be shorter
        std::memcpy(q, "0.000", 5);
        q += 2 - (n + e);
        CopyRun(q, digits);
        q += n;
      }
    } else {
      *q++ = digits[0];
      if (n > 1) {
        *q++ = '.';
        CopyRun(q, digits + 1);
        q += n - 1;
      }
      *q++ = 'e';
      *q++ = sci_exponent < 0 ? '-' : '+';
      if (abs_exponent >= 100) *q++ = static_cast<char>('0' + abs_exponent / 100);
      std::memcpy(q, kDigitPairs + 2 * (abs_exponent % 100), 2);
      q += 2;
    }
  }
  std::memcpy(p, text, kDoubleFormatRoom);
  return p + (q - text);
}

}  // namespace gnomon
