#include "src/query/execution/window_operator.h"

#include <algorithm>
#include <numeric>

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/expression_executor.h"
#include "src/query/execution/window_frame.h"
#include "src/query/execution/window_frame_functions.h"

namespace gnomon::query {
namespace {

// ntile(k): k buckets as equal as possible, the larger ones first (PostgreSQL's rule).
int64_t Ntile(size_t i, size_t n, int64_t k) {
  const size_t buckets = static_cast<size_t>(k);
  const size_t q = n / buckets, r = n % buckets;
  if (i < r * (q + 1)) return static_cast<int64_t>(i / (q + 1) + 1);
  return static_cast<int64_t>(r + (i - r * (q + 1)) / q + 1);
}

// An integer argument at a row (lag/lead's offset, ntile's count); `fallback` when absent.
Result<int64_t> IntArg(const WindowCall& call, const Chunk& args, size_t index, uint32_t row, int64_t fallback) {
  if (index >= args.columns.size()) return fallback;
  const Value v = GetValue(args.columns[index], row);
  if (v.is_null()) return Status::InvalidArgument(call.text + ": argument " + std::to_string(index + 1) + " is NULL");
  if (v.type != ValueType::kInt64 && v.type != ValueType::kUInt64) {
    return Status::InvalidArgument(call.text + ": argument " + std::to_string(index + 1) + " must be an integer");
  }
  return v.type == ValueType::kUInt64 ? static_cast<int64_t>(std::min<uint64_t>(v.u, INT64_MAX)) : v.i;
}

}  // namespace

WindowOperator::WindowOperator(OperatorPtr child, std::vector<WindowCall> calls, ExecutionContext* ctx)
    : child_(std::move(child)), calls_(std::move(calls)), ctx_(ctx) {
  schema_ = child_->schema();
  for (const WindowCall& c : calls_) schema_.push_back(ResultColumn{c.text, c.result_type});
}

std::string WindowOperator::Describe() const { return DescribeWindowCalls(calls_); }

Status WindowOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!computed_) {
    GNOMON_RETURN_IF_ERROR(Compute());
    computed_ = true;
  }
  const size_t end = std::min(order_.size(), emitted_ + kChunkRows);
  chunk->rows = end - emitted_;
  chunk->columns.resize(schema_.size());
  const size_t inputs = rows_.columns.size();
  for (size_t c = 0; c < inputs; ++c) GatherRows(rows_.columns[c], order_.data() + emitted_, chunk->rows, &chunk->columns[c]);
  for (size_t w = 0; w < calls_.size(); ++w) {
    Vector& v = chunk->columns[inputs + w];
    InitVector(&v, calls_[w].result_type, chunk->rows);
    for (size_t i = emitted_; i < end; ++i) AppendValue(&v, std::move(results_[w][order_[i]]));
  }
  emitted_ = end;
  *done = emitted_ >= order_.size();
  return Status::OK();
}

Status WindowOperator::Compute() {
  GNOMON_RETURN_IF_ERROR(DrainAll(child_.get(), &rows_, ctx_));
  const size_t n = rows_.rows;
  GNOMON_RETURN_IF_ERROR(ctx_->Reserve(n * (calls_.size() * sizeof(Value) + 3 * sizeof(uint32_t))));
  results_.assign(calls_.size(), std::vector<Value>(n));
  std::vector<bool> done(calls_.size(), false);
  for (size_t c = 0; c < calls_.size(); ++c) {
    if (done[c]) continue;
    std::vector<size_t> group;
    for (size_t d = c; d < calls_.size(); ++d) {
      if (!done[d] && calls_[d].ordering == calls_[c].ordering) {
        group.push_back(d);
        done[d] = true;
      }
    }
    Chunk keys;
    GNOMON_RETURN_IF_ERROR(SortFor(calls_[c], &keys));
    GNOMON_RETURN_IF_ERROR(ComputeGroup(group, keys));
  }
  if (calls_.empty()) {
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), 0u);
  }
  return Status::OK();
}

Status WindowOperator::SortFor(const WindowCall& call, Chunk* keys) {
  const size_t n = rows_.rows;
  keys->rows = n;
  keys->columns.resize(call.partition.size() + call.order.size());
  std::vector<SortKey> sort_keys;
  for (size_t i = 0; i < call.partition.size(); ++i) {
    GNOMON_RETURN_IF_ERROR(Evaluate(*call.partition[i], rows_, &keys->columns[i]));
    sort_keys.push_back(SortKey{static_cast<int>(i)});
  }
  for (size_t i = 0; i < call.order.size(); ++i) {
    GNOMON_RETURN_IF_ERROR(Evaluate(*call.order[i], rows_, &keys->columns[call.partition.size() + i]));
    SortKey k = call.order_keys[i];
    k.column = static_cast<int>(call.partition.size() + i);
    sort_keys.push_back(k);
  }
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  if (!sort_keys.empty()) {
    std::stable_sort(order_.begin(), order_.end(),
                     [&](uint32_t a, uint32_t b) { return CompareRows(*keys, a, b, sort_keys) < 0; });
  }
  return ctx_->Check();
}

Status WindowOperator::ComputeGroup(const std::vector<size_t>& calls, const Chunk& keys) {
  const WindowCall& first = calls_[calls[0]];
  std::vector<SortKey> partition_keys, order_keys;
  for (size_t i = 0; i < first.partition.size(); ++i) partition_keys.push_back(SortKey{static_cast<int>(i)});
  for (size_t i = 0; i < first.order.size(); ++i) order_keys.push_back(SortKey{static_cast<int>(first.partition.size() + i)});
  std::vector<Chunk> args(calls.size());
  for (size_t c = 0; c < calls.size(); ++c) {
    const WindowCall& call = calls_[calls[c]];
    args[c].rows = rows_.rows;
    args[c].columns.resize(call.args.size());
    for (size_t a = 0; a < call.args.size(); ++a) GNOMON_RETURN_IF_ERROR(Evaluate(*call.args[a], rows_, &args[c].columns[a]));
  }
  const size_t n = order_.size();
  WindowPartition part;
  for (size_t b = 0; b < n;) {
    size_t e = b + 1;
    while (e < n && CompareRows(keys, order_[e - 1], order_[e], partition_keys) == 0) ++e;
    part.begin = b;
    part.end = e;
    part.peer_begin.assign(e - b, 0);
    part.peer_end.assign(e - b, 0);
    part.group.assign(e - b, 0);
    part.group_begin.clear();
    for (size_t p = b; p < e;) {
      size_t q = p + 1;
      while (q < e && CompareRows(keys, order_[q - 1], order_[q], order_keys) == 0) ++q;
      for (size_t i = p; i < q; ++i) {
        part.peer_begin[i - b] = static_cast<uint32_t>(p);
        part.peer_end[i - b] = static_cast<uint32_t>(q);
        part.group[i - b] = static_cast<uint32_t>(part.group_begin.size());
      }
      part.group_begin.push_back(static_cast<uint32_t>(p));
      p = q;
    }
    for (size_t c = 0; c < calls.size(); ++c) {
      GNOMON_RETURN_IF_ERROR(ComputeCall(calls_[calls[c]], args[c], part, keys, &results_[calls[c]]));
    }
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    b = e;
  }
  return Status::OK();
}

Status WindowOperator::ComputeCall(const WindowCall& call, const Chunk& args, const WindowPartition& part,
                                   const Chunk& keys, std::vector<Value>* out) {
  const size_t b = part.begin, n = part.end - part.begin;
  if (UsesFrame(call.kind)) {
    std::vector<uint32_t> start, end;
    const bool has_order = !call.order.empty();
    const Vector* order_key = has_order ? &keys.columns[call.partition.size()] : nullptr;
    const SortKey key = has_order ? call.order_keys[0] : SortKey{0};
    GNOMON_RETURN_IF_ERROR(ComputeFrames(call.frame, part, order_, order_key, key, has_order, &start, &end));
    return ComputeFrameFunction(call, FramedPartition{&part, &order_, &start, &end}, args, out);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t row = order_[b + i];
    Value& v = (*out)[row];
    switch (call.kind) {
      case WindowFnKind::kRowNumber: v = Value::Int(static_cast<int64_t>(i + 1)); break;
      case WindowFnKind::kRank: v = Value::Int(static_cast<int64_t>(part.peer_begin[i] - b + 1)); break;
      case WindowFnKind::kDenseRank: v = Value::Int(static_cast<int64_t>(part.group[i] + 1)); break;
      case WindowFnKind::kPercentRank:
        v = Value::Float(n > 1 ? static_cast<double>(part.peer_begin[i] - b) / static_cast<double>(n - 1) : 0.0);
        break;
      case WindowFnKind::kCumeDist:
        v = Value::Float(static_cast<double>(part.peer_end[i] - b) / static_cast<double>(n));
        break;
      case WindowFnKind::kNtile: {
        GNOMON_ASSIGN_OR_RETURN(int64_t k, IntArg(call, args, 0, row, 1));
        if (k < 1) return Status::InvalidArgument(call.text + ": the number of buckets must be positive");
        v = Value::Int(Ntile(i, n, k));
        break;
      }
      case WindowFnKind::kLag:
      case WindowFnKind::kLead: {
        GNOMON_ASSIGN_OR_RETURN(int64_t offset, IntArg(call, args, 1, row, 1));
        if (call.kind == WindowFnKind::kLag) offset = offset == INT64_MIN ? INT64_MAX : -offset;
        const int64_t target = static_cast<int64_t>(i) + std::clamp<int64_t>(offset, -static_cast<int64_t>(n), n);
        if (target >= 0 && target < static_cast<int64_t>(n)) {
          v = GetValue(args.columns[0], order_[b + target]);
        } else {
          v = args.columns.size() > 2 ? GetValue(args.columns[2], row) : Value::Null();
        }
        break;
      }
      default: return Status::Internal("window function without a frame: " + call.text);
    }
  }
  return Status::OK();
}

}  // namespace gnomon::query
