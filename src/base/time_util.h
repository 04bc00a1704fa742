// Wall-clock time and RFC 3339 formatting of int64 nanosecond timestamps (UTC).
#pragma once

#include <cstdint>
#include <string>

namespace gnomon {

constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerMilli = 1000 * kNanosPerMicro;
constexpr int64_t kNanosPerSecond = 1000 * kNanosPerMilli;
constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;
constexpr int64_t kNanosPerDay = 24 * kNanosPerHour;

// Nanoseconds since the Unix epoch from the system clock.
int64_t NowNanos();
// Nanoseconds on the monotonic clock (for intervals; unrelated to wall time).
int64_t SteadyNanos();

// Floor division that rounds toward negative infinity (times before 1970 bucket correctly).
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Nanoseconds since the start of `nanos`'s UTC day, in [0, kNanosPerDay). (Computed as a
// remainder: FloorDiv(nanos, kNanosPerDay) * kNanosPerDay overflows for the earliest times.)
inline int64_t NanosOfDay(int64_t nanos) {
  const int64_t rem = nanos % kNanosPerDay;
  return rem < 0 ? rem + kNanosPerDay : rem;
}

// "2023-06-11T00:00:10Z", with the fraction trimmed to the digits it needs
// ("…:10.5Z", "…:10.000001Z"). Appends to *out.
void AppendRfc3339(std::string* out, int64_t nanos);
// Writes the time-of-day part of RFC 3339, "Thh:mm:ss[.fraction]Z", for `nanos_of_day` in
// [0, kNanosPerDay) (the fraction trimmed of trailing zeros); returns the end. Needs 20 bytes.
char* WriteRfc3339TimeOfDay(char* p, int64_t nanos_of_day);
std::string FormatRfc3339(int64_t nanos);

// Days since 1970-01-01 for a proleptic Gregorian date, and back (Howard Hinnant's algorithms).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d);
void CivilFromDays(int64_t days, int64_t* y, unsigned* m, unsigned* d);

}  // namespace gnomon
