#include "src/base/time_zone.h"

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "src/base/time_util.h"

namespace gnomon {
namespace {


using Seconds = cctz::time_point<cctz::seconds>;

Seconds ToSeconds(int64_t nanos) { return Seconds(cctz::seconds(FloorDiv(nanos, kNanosPerSecond))); }

int64_t ToNanos(const Seconds& s) { return static_cast<int64_t>(s.time_since_epoch().count()) * kNanosPerSecond; }

bool IsZoneName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '/' || name.find("..") != std::string_view::npos) {
    return false;
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '+' || c == '/';
    if (!ok) return false;
  }
  return true;
}

// CCTZ reads zones from $TZDIR, else /usr/share/zoneinfo; "UTC" it knows without a file.
bool HasZoneFile(std::string_view name) {
  if (name == "UTC") return true;
  const char* dir = std::getenv("TZDIR");
  std::error_code ec;
  return std::filesystem::is_regular_file(
      std::filesystem::path(dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo") / name, ec);
}

}  // namespace

struct TimeZone::Impl {
  cctz::time_zone zone;
};

TimeZone::TimeZone(std::string name, std::unique_ptr<Impl> impl) : name_(std::move(name)), impl_(std::move(impl)) {
  // A zone with no transitions and a zero offset renders and buckets exactly as UTC.
  cctz::time_zone::civil_transition t;
  utc_ = impl_->zone.lookup(ToSeconds(0)).offset == 0 &&
         !impl_->zone.next_transition(Seconds(cctz::seconds(INT32_MIN)), &t);
}

TimeZone::~TimeZone() = default;

Result<std::shared_ptr<const TimeZone>> TimeZone::Load(std::string_view name) {
  // Zones are few and queries name them again and again: each loads once per process.
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const TimeZone>, std::less<>> loaded;
  std::lock_guard lock(mu);
  if (auto it = loaded.find(name); it != loaded.end()) return it->second;
  auto impl = std::make_unique<Impl>();
  // load_time_zone falls back to UTC for a name it cannot read, and says so by returning false;
  // but it also remembers every name it was asked for, so only names of files in the zoneinfo
  // directory reach it (a client sending endless made-up names must not grow that map).
  if (!IsZoneName(name) || !HasZoneFile(name) || !cctz::load_time_zone(std::string(name), &impl->zone)) {
    return Status::InvalidArgument("unable to find time zone " + std::string(name));
  }
  std::shared_ptr<const TimeZone> zone(new TimeZone(std::string(name), std::move(impl)));
  loaded.emplace(std::string(name), zone);
  return zone;
}

int64_t TimeZone::OffsetSeconds(int64_t nanos) const { return impl_->zone.lookup(ToSeconds(nanos)).offset; }

int64_t TimeZone::FirstInstantAtOrAfter(int64_t wall_nanos) const {
  const int64_t seconds = FloorDiv(wall_nanos, kNanosPerSecond);
  const int64_t fraction = wall_nanos - seconds * kNanosPerSecond;
  const cctz::civil_second civil = cctz::civil_second(1970, 1, 1, 0, 0, 0) + seconds;
  const cctz::time_zone::civil_lookup found = impl_->zone.lookup(civil);
  // A skipped wall time: its first instant at or after is the transition (no fraction: the
  // clocks jumped past it). A repeated one: the earlier instant.
  if (found.kind == cctz::time_zone::civil_lookup::SKIPPED) return ToNanos(found.trans);
  return ToNanos(found.pre) + fraction;
}

bool TimeZone::PreviousShift(int64_t nanos, int64_t* at_nanos, int64_t* shift_seconds) const {
  // prev_transition finds the last one strictly before its argument; some transitions change
  // only the zone's abbreviation and are passed over.
  Seconds from = ToSeconds(nanos) + cctz::seconds(1);
  cctz::time_zone::civil_transition t;
  while (impl_->zone.prev_transition(from, &t)) {
    const int64_t shift = t.to - t.from;
    const Seconds at = impl_->zone.lookup(t.to).trans;
    if (shift != 0) {
      *at_nanos = ToNanos(at);
      *shift_seconds = shift;
      return true;
    }
    from = at;
  }
  return false;
}

void TimeZone::AppendRfc3339(std::string* out, int64_t nanos) const {
  const int64_t offset = OffsetSeconds(nanos);
  gnomon::AppendRfc3339(out, nanos + offset * kNanosPerSecond);
  if (offset == 0) return;  // AppendRfc3339 ended with 'Z'
  out->pop_back();
  const int64_t minutes = (offset < 0 ? -offset : offset) / 60;
  out->push_back(offset < 0 ? '-' : '+');
  out->push_back(static_cast<char>('0' + minutes / 60 / 10));
  out->push_back(static_cast<char>('0' + minutes / 60 % 10));
  out->push_back(':');
  out->push_back(static_cast<char>('0' + minutes % 60 / 10));
  out->push_back(static_cast<char>('0' + minutes % 60 % 10));
}

}  // namespace gnomon
