#include "src/query/execution/holistic_aggregate.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/query/execution/aggregate_function.h"

namespace gnomon::query {

namespace {

size_t Footprint(const Value& v) { return sizeof(Value) + (v.type == ValueType::kString ? v.s.capacity() : 0); }

// Positions of `values` in ascending order (descending where the spec says); ties ordered by
// `aux` where given, else kept in arrival order, so that answers do not depend on the sort.
std::vector<size_t> SortedOrder(const std::vector<Value>& values, const std::vector<Value>& aux, bool descending) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const bool by_aux = aux.size() == values.size();
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    int c = CompareValues(values[a], values[b]);
    if (c == 0 && by_aux) return !aux[a].is_null() && (aux[b].is_null() || CompareValues(aux[a], aux[b]) < 0);
    return descending ? c > 0 : c < 0;
  });
  return order;
}

// Linear interpolation between the two values around fraction p (PostgreSQL's percentile_cont).
Value Interpolated(const std::vector<Value>& values, const std::vector<size_t>& order, double p) {
  const double pos = p * static_cast<double>(order.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = static_cast<size_t>(std::ceil(pos));
  const double a = values[order[lo]].AsDouble();
  const double b = values[order[hi]].AsDouble();
  return Value::Float(lo == hi ? a : a + (b - a) * (pos - static_cast<double>(lo)));
}

// The most frequent value. Ties go to the value whose first occurrence by `aux` (the ORDER BY
// key) comes first, as InfluxQL's mode() picks the earliest; without a key, to the first in sort
// order, as PostgreSQL's mode() WITHIN GROUP does. `order` sorts equal values by aux.
Value MostFrequent(const std::vector<Value>& values, const std::vector<Value>& aux, const std::vector<size_t>& order) {
  const bool by_aux = aux.size() == values.size();
  size_t best = 0, best_run = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i + 1;
    while (j < order.size() && CompareValues(values[order[i]], values[order[j]]) == 0) ++j;
    const bool earlier = by_aux && best_run > 0 && j - i == best_run && !aux[order[i]].is_null() &&
                         (aux[best].is_null() || CompareValues(aux[order[i]], aux[best]) < 0);
    if (j - i > best_run || earlier) {
      best_run = j - i;
      best = order[i];
    }
    i = j;
  }
  return values[best];
}

}  // namespace

size_t HeldValues::Add(const AggregateSpec& spec, const Vector* arg, const Vector* key, size_t row) {
  // arg_percentile_nearest ranks its key and returns its argument; the others rank the argument.
  const bool selector = spec.kind == AggKind::kPercentileNearest;
  const Vector* ranked = selector ? key : arg;
  const Vector* aux = selector ? arg : key;
  if (ranked == nullptr || ranked->type == ValueType::kNull || ranked->IsNull(row)) return 0;
  ranked_.push_back(GetValue(*ranked, row));
  size_t bytes = Footprint(ranked_.back());
  if (spec.key) {
    aux_.push_back(aux == nullptr || aux->type == ValueType::kNull ? Value::Null() : GetValue(*aux, row));
    bytes += Footprint(aux_.back());
  }
  return bytes;
}

size_t HeldValues::Merge(const HeldValues& other) {
  size_t bytes = 0;
  for (const Value& v : other.ranked_) bytes += Footprint(v);
  for (const Value& v : other.aux_) bytes += Footprint(v);
  ranked_.insert(ranked_.end(), other.ranked_.begin(), other.ranked_.end());
  aux_.insert(aux_.end(), other.aux_.begin(), other.aux_.end());
  return bytes;
}

Result<Value> HeldValues::Finalize(const AggregateSpec& spec) const {
  if (ranked_.empty()) return Value::Null();
  const std::vector<size_t> order = SortedOrder(ranked_, aux_, spec.descending);
  const size_t n = order.size();
  switch (spec.kind) {
    case AggKind::kMedian: return Interpolated(ranked_, order, 0.5);
    case AggKind::kQuantileCont: return Interpolated(ranked_, order, spec.fraction);
    case AggKind::kQuantileDisc: {
      // The first value whose cumulative share reaches the fraction (PostgreSQL's percentile_disc).
      double rank = std::ceil(spec.fraction * static_cast<double>(n));
      size_t i = rank <= 1 ? 0 : std::min(n, static_cast<size_t>(rank)) - 1;
      return ranked_[order[i]];
    }
    case AggKind::kMode: return MostFrequent(ranked_, aux_, order);
    case AggKind::kPercentileNearest: {
      // InfluxQL's percentile(): the nearest rank, floor(N * percent / 100 + 0.5), 1-based; none
      // below the first or past the last.
      const double rank = std::floor(static_cast<double>(n) * spec.fraction / 100.0 + 0.5);
      if (rank < 1 || rank > static_cast<double>(n)) return Value::Null();
      return aux_[order[static_cast<size_t>(rank) - 1]];
    }
    default: return Status::Internal("not a holistic aggregate: " + spec.text);
  }
}

}  // namespace gnomon::query
