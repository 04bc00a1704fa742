// The random choices TSBS's query generators make (cmd/tsbs_generate_queries/uses/common and
// internal/utils): windows and subsets, drawn from Go's math/rand exactly as TSBS draws them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/bench/go_rand.h"

namespace gnomon::bench {

struct Window {
  int64_t start;
  int64_t end;
};

// TimeInterval.RandWindow(d): start = S + Int63n((E - d) - S), end = start + d.
Result<Window> RandWindow(GoRand* rng, int64_t start_ns, int64_t end_ns, int64_t d);

// GetRandomSubsetPerm(n, total): Intn(total) until n distinct values, in draw order.
Result<std::vector<int64_t>> RandSubset(GoRand* rng, uint64_t n, uint64_t total, const char* what);

// RFC 3339 truncated to whole seconds, as Go's time.Format(time.RFC3339).
std::string Rfc3339Seconds(int64_t nanos);

}  // namespace gnomon::bench
