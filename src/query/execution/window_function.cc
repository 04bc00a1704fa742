#include "src/query/execution/window_function.h"

#include <array>
#include <utility>

namespace gnomon::query {
namespace {

struct KindInfo {
  const char* name;
  WindowFnKind kind;
  size_t min_args, max_args;
};

constexpr std::array<KindInfo, 16> kKinds = {{
    {"row_number", WindowFnKind::kRowNumber, 0, 0},
    {"rank", WindowFnKind::kRank, 0, 0},
    {"dense_rank", WindowFnKind::kDenseRank, 0, 0},
    {"percent_rank", WindowFnKind::kPercentRank, 0, 0},
    {"cume_dist", WindowFnKind::kCumeDist, 0, 0},
    {"ntile", WindowFnKind::kNtile, 1, 1},
    {"lag", WindowFnKind::kLag, 1, 3},
    {"lead", WindowFnKind::kLead, 1, 3},
    {"first_value", WindowFnKind::kFirstValue, 1, 1},
    {"last_value", WindowFnKind::kLastValue, 1, 1},
    {"nth_value", WindowFnKind::kNthValue, 2, 2},
    {"count", WindowFnKind::kCount, 1, 1},
    {"sum", WindowFnKind::kSum, 1, 1},
    {"avg", WindowFnKind::kAvg, 1, 1},
    {"min", WindowFnKind::kMin, 1, 1},
    {"max", WindowFnKind::kMax, 1, 1},
}};

}  // namespace

Result<WindowFnKind> WindowKindOf(const std::string& name, size_t nargs, bool star) {
  if (star) {
    if (name == "count") return WindowFnKind::kCountStar;
    return Status::InvalidArgument(name + "(*) is not valid; only count(*)");
  }
  for (const KindInfo& k : kKinds) {
    if (name != k.name) continue;
    if (nargs < k.min_args || nargs > k.max_args) {
      std::string want = k.min_args == k.max_args ? std::to_string(k.min_args)
                                                  : std::to_string(k.min_args) + " to " + std::to_string(k.max_args);
      return Status::InvalidArgument("window function " + name + " takes " + want + " argument" +
                                     (k.max_args == 1 ? "" : "s") + ", not " + std::to_string(nargs));
    }
    return k.kind;
  }
  return Status::InvalidArgument("function " + name + " is not a window function");
}

std::string DescribeWindowCalls(const std::vector<WindowCall>& calls) {
  std::string d = "Window: ";
  for (size_t i = 0; i < calls.size(); ++i) d += (i ? ", " : "") + calls[i].text;
  return d;
}

bool UsesFrame(WindowFnKind kind) {
  switch (kind) {
    case WindowFnKind::kRowNumber:
    case WindowFnKind::kRank:
    case WindowFnKind::kDenseRank:
    case WindowFnKind::kPercentRank:
    case WindowFnKind::kCumeDist:
    case WindowFnKind::kNtile:
    case WindowFnKind::kLag:
    case WindowFnKind::kLead: return false;
    default: return true;
  }
}

ValueType WindowResultType(WindowFnKind kind, ValueType arg) {
  switch (kind) {
    case WindowFnKind::kRowNumber:
    case WindowFnKind::kRank:
    case WindowFnKind::kDenseRank:
    case WindowFnKind::kNtile:
    case WindowFnKind::kCountStar:
    case WindowFnKind::kCount: return ValueType::kInt64;
    case WindowFnKind::kPercentRank:
    case WindowFnKind::kCumeDist:
    case WindowFnKind::kAvg: return ValueType::kFloat64;
    case WindowFnKind::kSum:
      // Exact integer sums as the aggregate (an overflow is an error); unsigned and floats as doubles.
      return arg == ValueType::kInt64 || arg == ValueType::kBool ? ValueType::kInt64 : ValueType::kFloat64;
    default: return arg;
  }
}

}  // namespace gnomon::query
