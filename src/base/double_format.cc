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

// Digits of v (< 10^8) as exactly 8 characters at p: two independent halves, so their divisions
// overlap rather than chain.
inline void Write8(char* p, uint32_t v) {
  const uint32_t a = v / 10000, b = v % 10000;
  std::memcpy(p, kDigitPairs + 2 * (a / 100), 2);
  std::memcpy(p + 2, kDigitPairs + 2 * (a % 100), 2);
  std::memcpy(p + 4, kDigitPairs + 2 * (b / 100), 2);
  std::memcpy(p + 6, kDigitPairs + 2 * (b % 100), 2);
}

// Digits of v > 0: from its bit length (log10(2) ~ 1233 / 4096), corrected by one comparison.
int DecimalLength64(uint64_t v) {
  static constexpr uint64_t kPowers[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
                                           10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
                                           100000000000ull, 1000000000000ull, 10000000000000ull,
                                           100000000000000ull, 1000000000000000ull, 10000000000000000ull,
                                           100000000000000000ull, 1000000000000000000ull,
                                           10000000000000000000ull};
  const int guess = ((64 - __builtin_clzll(v)) * 1233) >> 12;  // floor(log10) or one less
  return guess + (v >= kPowers[guess] ? 1 : 0);
}

// The decimal digits of v (> 0, < 10^17, as a shortest significand is) ending at `end`; returns
// where they start. Written in 8-digit groups, then the leading zeros skipped.
char* SignificandDigits(uint64_t v, char* end) {
  constexpr uint64_t kTen8 = 100000000;
  const uint64_t high = v / kTen8;
  Write8(end - 8, static_cast<uint32_t>(v - high * kTen8));
  Write8(end - 16, static_cast<uint32_t>(high % kTen8));
  end[-17] = static_cast<char>('0' + high / kTen8);
  return end - DecimalLength64(v);
}

// Copies a run of at most 24 characters with one fixed-size copy (a variable-length memcpy of a
// few bytes compiles to a slow `rep movs` here). Source and destination have room for 24.
inline void CopyRun(char* to, const char* from) { std::memcpy(to, from, 24); }

}  // namespace

char* FormatDouble(char* p, double value) {
  if (!std::isfinite(value)) return std::to_chars(p, p + kMaxDoubleChars, value).ptr;
  // Written in place: text built in a local buffer and then copied out costs a failed
  // store-to-load forward (narrow stores read back as one wide load), a seventh of the time.
  char* q = p;
  if (std::signbit(value)) *q++ = '-';
  if (value == 0) {
    *q++ = '0';
  } else {
    // value = ±significand × 10^exponent, significand without trailing zeros: the shortest
    // digits that read back as value (ties to the even digit, as Ryu and std::to_chars).
    // The compact cache (a small table, a few more multiplications) stays in the CPU cache
    // among a query's other work, where the full one did not.
    const auto dec = jkj::dragonbox::to_decimal(value);
    char digit_buf[48];  // digits end at +24; 24 bytes past any digit stay readable
    char* const digits_end = digit_buf + 24;
    char* digits = SignificandDigits(dec.significand, digits_end);
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
  return q;
}

}  // namespace gnomon
