#include "src/query/execution/window_frame.h"

#include <algorithm>

namespace gnomon::query {
namespace {

using Kind = FrameBoundKind;

size_t Clamp(int64_t offset, size_t limit) {
  return offset < 0 ? 0 : std::min(static_cast<size_t>(offset), limit);
}

void RowsFrame(const BoundFrame& f, size_t b, size_t e, size_t p, uint32_t* start, uint32_t* end) {
  const size_t before = p - b, after = e - p - 1;
  size_t s = b, x = e;
  switch (f.start) {
    case Kind::kUnboundedPreceding: s = b; break;
    case Kind::kPreceding: s = p - Clamp(f.start_rows, before); break;
    case Kind::kCurrentRow: s = p; break;
    case Kind::kFollowing: s = p + Clamp(f.start_rows, after + 1); break;
    case Kind::kUnboundedFollowing: s = e; break;
  }
  switch (f.end) {
    case Kind::kUnboundedFollowing: x = e; break;
    case Kind::kPreceding: x = static_cast<size_t>(f.end_rows) <= before ? p - f.end_rows + 1 : b; break;
    case Kind::kCurrentRow: x = p + 1; break;
    case Kind::kFollowing: x = p + 1 + Clamp(f.end_rows, after); break;
    case Kind::kUnboundedPreceding: x = b; break;
  }
  *start = static_cast<uint32_t>(s);
  *end = static_cast<uint32_t>(x);
}

void GroupsFrame(const BoundFrame& f, const WindowPartition& part, size_t p, uint32_t* start, uint32_t* end) {
  const size_t groups = part.group_begin.size();
  const size_t g = part.group[p - part.begin];
  auto group_end = [&](size_t k) { return k + 1 < groups ? part.group_begin[k + 1] : part.end; };
  size_t s = part.begin, x = part.end;
  switch (f.start) {
    case Kind::kUnboundedPreceding: s = part.begin; break;
    case Kind::kPreceding: s = part.group_begin[g - Clamp(f.start_rows, g)]; break;
    case Kind::kCurrentRow: s = part.group_begin[g]; break;
    case Kind::kFollowing: {
      const size_t k = g + Clamp(f.start_rows, groups);
      s = k < groups ? part.group_begin[k] : part.end;
      break;
    }
    case Kind::kUnboundedFollowing: s = part.end; break;
  }
  switch (f.end) {
    case Kind::kUnboundedFollowing: x = part.end; break;
    case Kind::kPreceding: x = static_cast<size_t>(f.end_rows) <= g ? group_end(g - f.end_rows) : part.begin; break;
    case Kind::kCurrentRow: x = group_end(g); break;
    case Kind::kFollowing: x = group_end(std::min(groups - 1, g + Clamp(f.end_rows, groups))); break;
    case Kind::kUnboundedPreceding: x = part.begin; break;
  }
  *start = static_cast<uint32_t>(s);
  *end = static_cast<uint32_t>(x);
}

// The ORDER BY key as a number, sign-flipped for DESC so that it ascends along the partition.
long double KeyAt(const Vector& key, uint32_t row, bool descending) {
  long double v = key.type == ValueType::kFloat64  ? static_cast<long double>(key.f64[row])
                  : key.type == ValueType::kUInt64 ? static_cast<long double>(key.u64[row])
                                                   : static_cast<long double>(key.i64[row]);
  return descending ? -v : v;
}

// RANGE with an offset on either side: bounds found by binary search over the non-null keys.
void RangeOffsetFrames(const BoundFrame& f, const WindowPartition& part, const std::vector<uint32_t>& order,
                       const Vector& key, const SortKey& sort, std::vector<uint32_t>* start,
                       std::vector<uint32_t>* end) {
  const size_t b = part.begin, e = part.end;
  auto is_null = [&](size_t p) { return key.IsNull(order[p]); };
  size_t nb = b, ne = e;  // the non-null run: NULLs sort all first or all last
  while (nb < ne && is_null(nb)) ++nb;
  while (ne > nb && is_null(ne - 1)) --ne;
  const bool floating = key.type == ValueType::kFloat64;
  const long double start_off = floating ? f.start_range : static_cast<long double>(f.start_range_i);
  const long double end_off = floating ? f.end_range : static_cast<long double>(f.end_range_i);
  // First position in [nb, ne) whose key is >= x (or > x with `strict`).
  auto first_at_least = [&](long double x, bool strict) {
    size_t lo = nb, hi = ne;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const long double k = KeyAt(key, order[mid], sort.descending);
      if (strict ? k <= x : k < x) lo = mid + 1; else hi = mid;
    }
    return lo;
  };
  for (size_t p = b; p < e; ++p) {
    const size_t i = p - b;
    uint32_t s = part.peer_begin[i], x = part.peer_end[i];  // CURRENT ROW, and a NULL key's offsets
    const bool null_key = is_null(p);
    const long double v = null_key ? 0 : KeyAt(key, order[p], sort.descending);
    switch (f.start) {
      case Kind::kUnboundedPreceding: s = static_cast<uint32_t>(b); break;
      case Kind::kPreceding: if (!null_key) s = static_cast<uint32_t>(first_at_least(v - start_off, false)); break;
      case Kind::kFollowing: if (!null_key) s = static_cast<uint32_t>(first_at_least(v + start_off, false)); break;
      default: break;
    }
    switch (f.end) {
      case Kind::kUnboundedFollowing: x = static_cast<uint32_t>(e); break;
      case Kind::kPreceding: if (!null_key) x = static_cast<uint32_t>(first_at_least(v - end_off, true)); break;
      case Kind::kFollowing: if (!null_key) x = static_cast<uint32_t>(first_at_least(v + end_off, true)); break;
      default: break;
    }
    (*start)[i] = s;
    (*end)[i] = x;
  }
}

}  // namespace

Status ComputeFrames(const BoundFrame& frame, const WindowPartition& part, const std::vector<uint32_t>& order,
                     const Vector* order_key, const SortKey& key, bool has_order_by, std::vector<uint32_t>* start,
                     std::vector<uint32_t>* end) {
  const size_t n = part.end - part.begin;
  start->resize(n);
  end->resize(n);
  const bool offsets = frame.start == Kind::kPreceding || frame.start == Kind::kFollowing ||
                       frame.end == Kind::kPreceding || frame.end == Kind::kFollowing;
  if (frame.unit == FrameUnit::kRange && offsets) {
    if (order_key == nullptr) return Status::Internal("RANGE frame with an offset but no ORDER BY key");
    RangeOffsetFrames(frame, part, order, *order_key, key, start, end);
    return Status::OK();
  }
  for (size_t p = part.begin; p < part.end; ++p) {
    const size_t i = p - part.begin;
    if (frame.unit == FrameUnit::kRows) {
      RowsFrame(frame, part.begin, part.end, p, &(*start)[i], &(*end)[i]);
    } else if (frame.unit == FrameUnit::kGroups) {
      GroupsFrame(frame, part, p, &(*start)[i], &(*end)[i]);
    } else {
      // RANGE without offsets: to the peers' edges; without ORDER BY every row is a peer.
      (*start)[i] = frame.start == Kind::kUnboundedPreceding ? static_cast<uint32_t>(part.begin) : part.peer_begin[i];
      (*end)[i] = frame.end == Kind::kUnboundedFollowing ? static_cast<uint32_t>(part.end) : part.peer_end[i];
      if (!has_order_by) {
        (*start)[i] = static_cast<uint32_t>(part.begin);
        (*end)[i] = static_cast<uint32_t>(part.end);
      }
    }
  }
  return Status::OK();
}

}  // namespace gnomon::query
