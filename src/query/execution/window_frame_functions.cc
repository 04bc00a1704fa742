#include "src/query/execution/window_frame_functions.h"

#include <cmath>
#include <limits>

#include "src/query/execution/basic_operators.h"

namespace gnomon::query {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

bool Present(const Vector& v, uint32_t row) {
  if (v.type == ValueType::kNull || v.IsNull(row)) return false;
  return v.type != ValueType::kFloat64 || !std::isnan(v.f64[row]);  // min/max and sums skip NaN as the aggregates do
}

// Per position of the partition: how many non-null values, and their running sum, up to it.
struct PrefixSums {
  std::vector<int64_t> count;     // count[i] = non-null values in positions [0, i)
  std::vector<__int128> isum;     // integer sums, exact
  std::vector<double> hi, lo;     // sums of the finite floats, compensated (two-sum): hi + lo
  // NaN and infinities are counted, not summed: one would poison every later prefix.
  std::vector<int64_t> nan, pos_inf, neg_inf;
};

PrefixSums BuildPrefix(const Vector& arg, const FramedPartition& fp, bool integer) {
  const size_t n = fp.part->end - fp.part->begin;
  PrefixSums p;
  p.count.assign(n + 1, 0);
  if (integer) {
    p.isum.assign(n + 1, 0);
  } else {
    for (auto* v : {&p.nan, &p.pos_inf, &p.neg_inf}) v->assign(n + 1, 0);
    p.hi.assign(n + 1, 0);
    p.lo.assign(n + 1, 0);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t row = (*fp.order)[fp.part->begin + i];
    const bool has = arg.type != ValueType::kNull && !arg.IsNull(row);
    p.count[i + 1] = p.count[i] + (has ? 1 : 0);
    if (integer) {
      const int64_t v = !has ? 0 : arg.type == ValueType::kBool ? (arg.b[row] ? 1 : 0) : arg.i64[row];
      p.isum[i + 1] = p.isum[i] + v;
      continue;
    }
    double v = has ? GetValue(arg, row).AsDouble() : 0.0;
    p.nan[i + 1] = p.nan[i] + std::isnan(v);
    p.pos_inf[i + 1] = p.pos_inf[i] + (v == std::numeric_limits<double>::infinity());
    p.neg_inf[i + 1] = p.neg_inf[i] + (v == -std::numeric_limits<double>::infinity());
    if (!std::isfinite(v)) v = 0;
    const double s = p.hi[i] + v;
    const double bb = s - p.hi[i];
    p.hi[i + 1] = s;
    p.lo[i + 1] = p.lo[i] + ((p.hi[i] - (s - bb)) + (v - bb));
  }
  return p;
}

// Min or max over any range of a partition's positions: a segment tree of input rows.
class RangeExtreme {
 public:
  RangeExtreme(const Chunk& args, const FramedPartition& fp, bool max) : args_(args), max_(max) {
    n_ = fp.part->end - fp.part->begin;
    tree_.assign(2 * n_, kNone);
    const Vector& v = args.columns[0];
    for (size_t i = 0; i < n_; ++i) {
      const uint32_t row = (*fp.order)[fp.part->begin + i];
      tree_[n_ + i] = Present(v, row) ? row : kNone;
    }
    for (size_t i = n_ - 1; i >= 1 && n_ > 1; --i) tree_[i] = Better(tree_[2 * i], tree_[2 * i + 1]);
  }
  // Best row of positions [l, r) relative to the partition; kNone when none holds a value.
  uint32_t Query(size_t l, size_t r) const {
    uint32_t best = kNone;
    for (l += n_, r += n_; l < r; l >>= 1, r >>= 1) {
      if (l & 1) best = Better(best, tree_[l++]);
      if (r & 1) best = Better(best, tree_[--r]);
    }
    return best;
  }

 private:
  uint32_t Better(uint32_t a, uint32_t b) const {
    if (a == kNone) return b;
    if (b == kNone) return a;
    const int c = CompareRows(args_, a, b, {SortKey{0}});
    return (max_ ? c >= 0 : c <= 0) ? a : b;
  }
  const Chunk& args_;
  bool max_;
  size_t n_ = 0;
  std::vector<uint32_t> tree_;
};

Status Aggregate(const WindowCall& call, const FramedPartition& fp, const Chunk& args, std::vector<Value>* out) {
  const WindowPartition& part = *fp.part;
  const size_t n = part.end - part.begin;
  auto row_of = [&](size_t i) { return (*fp.order)[part.begin + i]; };
  auto frame = [&](size_t i, size_t* s, size_t* e) {
    *s = (*fp.start)[i] - part.begin;
    *e = std::max<size_t>((*fp.end)[i], (*fp.start)[i]) - part.begin;
  };
  if (call.kind == WindowFnKind::kCountStar) {
    for (size_t i = 0; i < n; ++i) {
      size_t s, e;
      frame(i, &s, &e);
      (*out)[row_of(i)] = Value::Int(static_cast<int64_t>(e - s));
    }
    return Status::OK();
  }
  const Vector& arg = args.columns[0];
  if (call.kind == WindowFnKind::kMin || call.kind == WindowFnKind::kMax) {
    RangeExtreme tree(args, fp, call.kind == WindowFnKind::kMax);
    for (size_t i = 0; i < n; ++i) {
      size_t s, e;
      frame(i, &s, &e);
      const uint32_t best = tree.Query(s, e);
      (*out)[row_of(i)] = best == kNone ? Value::Null() : GetValue(arg, best);
    }
    return Status::OK();
  }
  const bool integer = arg.type == ValueType::kInt64 || arg.type == ValueType::kBool;
  PrefixSums p = BuildPrefix(arg, fp, integer);
  for (size_t i = 0; i < n; ++i) {
    size_t s, e;
    frame(i, &s, &e);
    const int64_t count = p.count[e] - p.count[s];
    Value& v = (*out)[row_of(i)];
    if (call.kind == WindowFnKind::kCount) {
      v = Value::Int(count);
      continue;
    }
    if (count == 0) {
      v = Value::Null();
      continue;
    }
    if (integer) {
      const __int128 sum = p.isum[e] - p.isum[s];
      if (call.kind == WindowFnKind::kAvg) {
        v = Value::Float(static_cast<double>(sum) / static_cast<double>(count));
      } else if (sum > std::numeric_limits<int64_t>::max() || sum < std::numeric_limits<int64_t>::min()) {
        return Status::OutOfRange(call.text + " overflows int64");
      } else {
        v = Value::Int(static_cast<int64_t>(sum));
      }
      continue;
    }
    const bool nan = p.nan[e] > p.nan[s];
    const bool pos = p.pos_inf[e] > p.pos_inf[s], neg = p.neg_inf[e] > p.neg_inf[s];
    double sum = (p.hi[e] - p.hi[s]) + (p.lo[e] - p.lo[s]);
    if (nan || (pos && neg)) sum = std::numeric_limits<double>::quiet_NaN();
    else if (pos) sum = std::numeric_limits<double>::infinity();
    else if (neg) sum = -std::numeric_limits<double>::infinity();
    v = Value::Float(call.kind == WindowFnKind::kAvg ? sum / static_cast<double>(count) : sum);
  }
  return Status::OK();
}

// nth_value's n at a row: a positive integer.
Result<int64_t> NthOf(const WindowCall& call, const Chunk& args, uint32_t row) {
  const Value n = GetValue(args.columns[1], row);
  if (n.is_null() || (n.type != ValueType::kInt64 && n.type != ValueType::kUInt64) || n.AsDouble() < 1) {
    return Status::InvalidArgument(call.text + ": the position must be a positive integer");
  }
  return n.type == ValueType::kUInt64 ? static_cast<int64_t>(std::min<uint64_t>(n.u, INT64_MAX)) : n.i;
}

}  // namespace

Status ComputeFrameFunction(const WindowCall& call, const FramedPartition& fp, const Chunk& args,
                            std::vector<Value>* out) {
  const WindowPartition& part = *fp.part;
  if (call.kind != WindowFnKind::kFirstValue && call.kind != WindowFnKind::kLastValue &&
      call.kind != WindowFnKind::kNthValue) {
    return Aggregate(call, fp, args, out);
  }
  const Vector& arg = args.columns[0];
  for (size_t p = part.begin; p < part.end; ++p) {
    const size_t i = p - part.begin;
    const uint32_t row = (*fp.order)[p];
    const size_t s = (*fp.start)[i], e = (*fp.end)[i];
    size_t at = SIZE_MAX;
    if (call.kind == WindowFnKind::kFirstValue && s < e) at = s;
    if (call.kind == WindowFnKind::kLastValue && s < e) at = e - 1;
    if (call.kind == WindowFnKind::kNthValue) {
      GNOMON_ASSIGN_OR_RETURN(int64_t nth, NthOf(call, args, row));
      if (s < e && static_cast<uint64_t>(nth) <= e - s) at = s + nth - 1;
    }
    (*out)[row] = at == SIZE_MAX ? Value::Null() : GetValue(arg, (*fp.order)[at]);
  }
  return Status::OK();
}

}  // namespace gnomon::query
