// Aggregate functions: their specification (bound arguments, result type) and running state.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>

#include "src/base/result.h"
#include "src/query/execution/holistic_aggregate.h"
#include "src/query/execution/value.h"
#include "src/query/binder/bound_expression.h"
#include "src/storage/scan.h"

namespace gnomon::query {

enum class AggKind : uint8_t {
  kCountStar, kCount, kSum, kMin, kMax, kAvg,
  kFirst, kLast,        // by an ordering key (time unless ORDER BY says otherwise)
  kArgMax, kArgMin,     // arg at the max/min of key
  kStddevSamp, kStddevPop, kVarSamp, kVarPop,
  // Holistic: the state keeps every value (holistic_aggregate.h).
  kMedian, kQuantileCont, kQuantileDisc, kMode,
  kPercentileNearest,   // InfluxQL's percentile(): arg at the nearest rank of key
};

struct AggregateSpec {
  AggKind kind = AggKind::kCountStar;
  bool distinct = false;   // count(DISTINCT x)
  BoundExprPtr arg;        // null for count(*)
  BoundExprPtr key;        // first/last ordering key, or arg_max/arg_min's compared value
  double fraction = 0;     // quantile_cont/quantile_disc: 0..1; percentile_nearest: percent, 0..100
  bool descending = false; // WITHIN GROUP (ORDER BY x DESC)
  ValueType result_type = ValueType::kInt64;
  std::string text;        // normalised SQL, used to match references after aggregation
};

// Maps a parsed call to a spec (arguments still unbound): kind, and whether the key is the
// time column (first/last/last_value without ORDER BY) or an explicit expression.
Result<AggKind> AggregateKindOf(const std::string& name, size_t nargs, bool has_order_by,
                                bool* order_desc);
ValueType AggregateResultType(AggKind kind, ValueType arg_type);
// Whether block statistics (count/min/max/sum) can answer this aggregate.
bool AnsweredByStats(AggKind kind);
bool IsHolistic(AggKind kind);

struct AggState {
  int64_t count = 0;
  double sum = 0;
  int64_t isum = 0;
  bool int_overflow = false;
  double mean = 0, m2 = 0;  // Welford, for stddev/variance
  bool has = false;
  Value best;               // min/max/first/last/arg result
  Value best_key;           // the key that chose `best`
  std::unique_ptr<std::unordered_set<std::string>> distinct;
  std::unique_ptr<HeldValues> held;  // holistic kinds

  // Returns the bytes of working memory the row added (holistic kinds; 0 for the others).
  size_t Update(const AggregateSpec& spec, const Vector* arg, const Vector* key, size_t row);
  // Merges block statistics of the aggregate's column (count/min/max/sum kinds only).
  void MergeStats(const AggregateSpec& spec, const storage::ColumnStats& stats, uint32_t rows);
  size_t Merge(const AggregateSpec& spec, const AggState& other);
  Result<Value> Finalize(const AggregateSpec& spec) const;
  // Finalize for a state that is emitted once: moves the chosen value out instead of copying.
  Result<Value> TakeResult(const AggregateSpec& spec);

 private:
  void UpdateRunning(const AggregateSpec& spec, const Vector* arg, const Vector* key, size_t row);
  void MergeRunning(const AggregateSpec& spec, const AggState& other);
};

}  // namespace gnomon::query
