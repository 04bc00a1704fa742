#include "src/bench/query_random.h"

#include <set>

#include "src/base/time_util.h"

namespace gnomon::bench {

Result<Window> RandWindow(GoRand* rng, int64_t start_ns, int64_t end_ns, int64_t d) {
  const int64_t upper = end_ns - d;
  if (upper <= start_ns) {
    return Status::InvalidArgument("time range too short for a " + std::to_string(d / kNanosPerMinute) +
                                   " minute window");
  }
  const int64_t start = start_ns + rng->Int63n(upper - start_ns);
  return Window{start, start + d};
}

Result<std::vector<int64_t>> RandSubset(GoRand* rng, uint64_t n, uint64_t total, const char* what) {
  if (n > total) {
    return Status::InvalidArgument("cannot pick " + std::to_string(n) + " " + what + " out of scale " +
                                   std::to_string(total));
  }
  std::set<int64_t> seen;
  std::vector<int64_t> out;
  while (out.size() < n) {
    const int64_t v = rng->Intn(static_cast<int64_t>(total));
    if (seen.insert(v).second) out.push_back(v);
  }
  return out;
}

std::string Rfc3339Seconds(int64_t nanos) {
  return FormatRfc3339(FloorDiv(nanos, kNanosPerSecond) * kNanosPerSecond);
}

}  // namespace gnomon::bench
