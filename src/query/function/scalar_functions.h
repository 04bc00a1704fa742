// Scalar SQL functions: name resolution and typing at bind time, evaluation at run time.
// Time functions: time_bucket(width, ts [, origin]), date_bin(width, ts [, origin [, zone]]),
// date_bin_end (the same arguments: the end of date_bin's bucket),
// date_trunc(unit, ts), now(), to_timestamp(seconds). Math: abs, floor, ceil, round, sqrt, ln,
// log10, exp, power, random() (uniform in [0, 1), new for every row). Strings: lower, upper,
// length, concat. Other: coalesce, nullif.
#pragma once

#include <memory>
#include <vector>

#include "src/base/result.h"
#include "src/query/execution/value.h"
#include "src/query/binder/bound_expression.h"

namespace gnomon {
class TimeZone;
}

namespace gnomon::query {

// Checks arguments and sets e->type. now() is folded into a constant here. Constant interval
// arguments given as strings ('60 seconds') are parsed into nanoseconds.
Status ResolveScalarFunction(BoundExpr* e, int64_t now_ns);

// Evaluates a resolved call on argument values (any may be NULL).
Result<Value> EvalScalarFunction(const BoundExpr& e, const std::vector<Value>& args);

// A bucketing function of one timestamp: time_bucket/date_bin with constant width (and origin),
// or date_trunc with a constant fixed-width unit. Used by the vectorised fast paths.
struct TimeBucketFn {
  int64_t width = 0;   // nanoseconds; 0 when not a fixed-width bucket
  int64_t origin = 0;
  // Calendar truncation for date_trunc('month'|'quarter'|'year'|'week'), else kNone.
  enum class Calendar : uint8_t { kNone, kWeek, kMonth, kQuarter, kYear } calendar = Calendar::kNone;
  // date_bin(width, ts, origin, 'zone'): buckets of the zone's wall-clock time, `origin` a wall
  // time too (see ZonedStart). Null: UTC.
  std::shared_ptr<const TimeZone> zone;
  int64_t Apply(int64_t t) const;
  // The first instant after the bucket that starts at `bucket_start` (its exclusive end).
  int64_t BucketEnd(int64_t bucket_start) const;

 private:
  int64_t ZonedStart(int64_t t) const;
  int64_t ZonedEnd(int64_t bucket_start) const;
};
// If `e` is a bucketing call whose timestamp argument is input column `*column`, fills *fn.
bool AsTimeBucket(const BoundExpr& e, TimeBucketFn* fn, int* column);
// The same for date_bin_end, whose value is fn->BucketEnd(fn->Apply(t)) (not a bucket key).
bool AsBucketEnd(const BoundExpr& e, TimeBucketFn* fn, int* column);

}  // namespace gnomon::query
