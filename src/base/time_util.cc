#include "src/base/time_util.h"

#include <chrono>
#include <cstdio>

namespace gnomon {

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
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
  int64_t days = FloorDiv(nanos, kNanosPerDay);
  int64_t rem = nanos - days * kNanosPerDay;
  int64_t y;
  unsigned mo, d;
  CivilFromDays(days, &y, &mo, &d);
  int64_t secs = rem / kNanosPerSecond;
  int64_t frac = rem % kNanosPerSecond;
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), "%04lld-%02u-%02uT%02lld:%02lld:%02lld",
                        static_cast<long long>(y), mo, d, static_cast<long long>(secs / 3600),
                        static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  out->append(buf, n);
  if (frac != 0) {
    char fbuf[16];
    std::snprintf(fbuf, sizeof(fbuf), ".%09lld", static_cast<long long>(frac));
    int len = 10;
    while (fbuf[len - 1] == '0') --len;
    out->append(fbuf, len);
  }
  out->push_back('Z');
}

std::string FormatRfc3339(int64_t nanos) {
  std::string s;
  AppendRfc3339(&s, nanos);
  return s;
}

}  // namespace gnomon
