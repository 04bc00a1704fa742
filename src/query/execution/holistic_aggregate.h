// Holistic aggregates (median, quantiles, mode, nearest-rank percentile): their answer depends on
// every input value at once, so their state keeps the values until it finalises.
#pragma once

#include <cstddef>
#include <vector>

#include "src/base/result.h"
#include "src/query/execution/value.h"

namespace gnomon::query {

struct AggregateSpec;

class HeldValues {
 public:
  // Keeps the row's ranked value (and, where the aggregate returns another column, its argument);
  // returns the bytes it took, for the query's memory account.
  size_t Add(const AggregateSpec& spec, const Vector* arg, const Vector* key, size_t row);
  size_t Merge(const HeldValues& other);
  Result<Value> Finalize(const AggregateSpec& spec) const;

 private:
  std::vector<Value> ranked_;  // what the aggregate orders or counts
  // Aligned with ranked_ where the spec has a key: arg_percentile_nearest's returned argument, or
  // the ordering that breaks mode(x ORDER BY key)'s ties.
  std::vector<Value> aux_;
};

}  // namespace gnomon::query
