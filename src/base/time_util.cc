#include "src/base/time_util.h"

#include <chrono>
#include <cstdio>

namespace gnomon {

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t SteadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// From "chrono-Compatible Low-Level Date Algorithms" (H. Hinnant), public-domain algorithms.
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

void AppendRfc3339(std::string* out, int64_t nanos) {
  // Hand-rolled digits: result writers call this for every timestamp they render.
  int64_t days = FloorDiv(nanos, kNanosPerDay);
  const int64_t rem = NanosOfDay(nanos);
  int64_t y;
  unsigned mo, d;
  CivilFromDays(days, &y, &mo, &d);
  char buf[48];
  char* p = buf;
  if (y < 0 || y > 9999) {
    p += std::snprintf(p, 16, "%04lld", static_cast<long long>(y));
  } else {
    p[0] = static_cast<char>('0' + y / 1000);
    p[1] = static_cast<char>('0' + y / 100 % 10);
    p[2] = static_cast<char>('0' + y / 10 % 10);
    p[3] = static_cast<char>('0' + y % 10);
    p += 4;
  }
  auto two = [&](unsigned v) {
    *p++ = '-';
    *p++ = static_cast<char>('0' + v / 10);
    *p++ = static_cast<char>('0' + v % 10);
  };
  two(mo);
  two(d);
  p = WriteRfc3339TimeOfDay(p, rem);
  out->append(buf, p - buf);
}

char* WriteRfc3339TimeOfDay(char* p, int64_t nanos_of_day) {
  const int64_t secs = nanos_of_day / kNanosPerSecond;
  int64_t frac = nanos_of_day % kNanosPerSecond;
  auto two = [&](int64_t v, char sep) {
    *p++ = sep;
    *p++ = static_cast<char>('0' + v / 10);
    *p++ = static_cast<char>('0' + v % 10);
  };
  two(secs / 3600, 'T');
  two(secs / 60 % 60, ':');
  two(secs % 60, ':');
  if (frac != 0) {
    char digits[9];
    for (int i = 8; i >= 0; --i) {
      digits[i] = static_cast<char>('0' + frac % 10);
      frac /= 10;
    }
    int len = 9;
    while (digits[len - 1] == '0') --len;
    *p++ = '.';
    for (int i = 0; i < len; ++i) *p++ = digits[i];
  }
  *p++ = 'Z';
  return p;
}

std::string FormatRfc3339(int64_t nanos) {
  std::string s;
  AppendRfc3339(&s, nanos);
  return s;
}

}  // namespace gnomon
