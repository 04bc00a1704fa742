// Window functions: f(...) OVER (PARTITION BY ... ORDER BY ... frame), bound. The binder
// (binder/window_binder.cc) builds these; WindowOperator computes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/query/binder/bound_expression.h"
#include "src/query/execution/basic_operators.h"
#include "src/query/parser/ast_expression.h"

namespace gnomon::query {

enum class WindowFnKind : uint8_t {
  // Ranking: over the partition's order, no frame.
  kRowNumber, kRank, kDenseRank, kPercentRank, kCumeDist, kNtile,
  // Offsets within the partition, no frame.
  kLag, kLead,
  // Over the frame.
  kFirstValue, kLastValue, kNthValue,
  kCountStar, kCount, kSum, kAvg, kMin, kMax,
};

// The frame as the operator uses it: offsets evaluated (row or group counts for ROWS and
// GROUPS; for RANGE a distance in the ORDER BY key's unit, nanoseconds for time).
struct BoundFrame {
  FrameUnit unit = FrameUnit::kRange;
  FrameBoundKind start = FrameBoundKind::kUnboundedPreceding;
  FrameBoundKind end = FrameBoundKind::kCurrentRow;
  int64_t start_rows = 0, end_rows = 0;      // ROWS / GROUPS offsets
  double start_range = 0, end_range = 0;     // RANGE offsets over a numeric key
  int64_t start_range_i = 0, end_range_i = 0;  // RANGE offsets over an integer or time key
};

struct WindowCall {
  WindowFnKind kind = WindowFnKind::kRowNumber;
  std::vector<BoundExprPtr> args;       // lag(x, offset, default), nth_value(x, n), ntile(n), ...
  std::vector<BoundExprPtr> partition;  // PARTITION BY
  std::vector<BoundExprPtr> order;      // ORDER BY expressions
  std::vector<SortKey> order_keys;      // their directions (column = position in `order`)
  BoundFrame frame;
  ValueType result_type = ValueType::kInt64;
  std::string text;                     // the call as written, normalised: its output name
  // Calls with equal `ordering` (partition and order text) share one sort.
  std::string ordering;
};

// The kind for a window call's name and argument count; a clear error for unknown names or
// wrong arity. `star` for f(*).
Result<WindowFnKind> WindowKindOf(const std::string& name, size_t nargs, bool star);
// Ranking and offset functions take no frame; the rest compute over theirs.
bool UsesFrame(WindowFnKind kind);
// "Window: f(...) OVER (...), ...": the calls as EXPLAIN shows them, logical and physical alike.
std::string DescribeWindowCalls(const std::vector<WindowCall>& calls);
ValueType WindowResultType(WindowFnKind kind, ValueType arg_type);

}  // namespace gnomon::query
