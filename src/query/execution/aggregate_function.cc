#include "src/query/execution/aggregate_function.h"

#include <cmath>

namespace gnomon::query {

Result<AggKind> AggregateKindOf(const std::string& name, size_t nargs, bool has_order_by,
                                bool* order_desc) {
  *order_desc = false;
  auto want = [&](size_t lo, size_t hi) -> Status {
    if (nargs < lo || nargs > hi) {
      return Status::InvalidArgument("aggregate " + name + " takes " + std::to_string(lo) +
                                     (hi != lo ? "-" + std::to_string(hi) : "") + " arguments");
    }
    return Status::OK();
  };
  if (name == "count") { GNOMON_RETURN_IF_ERROR(want(0, 1)); return nargs == 0 ? AggKind::kCountStar : AggKind::kCount; }
  if (name == "sum") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kSum; }
  if (name == "min") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kMin; }
  if (name == "max") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kMax; }
  if (name == "avg" || name == "mean") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kAvg; }
  if (name == "first" || name == "first_value") { GNOMON_RETURN_IF_ERROR(want(1, 2)); return AggKind::kFirst; }
  if (name == "last" || name == "last_value") { GNOMON_RETURN_IF_ERROR(want(1, 2)); return AggKind::kLast; }
  if (name == "arg_max" || name == "argmax") { GNOMON_RETURN_IF_ERROR(want(2, 2)); return AggKind::kArgMax; }
  if (name == "arg_min" || name == "argmin") { GNOMON_RETURN_IF_ERROR(want(2, 2)); return AggKind::kArgMin; }
  if (name == "stddev" || name == "stddev_samp") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kStddevSamp; }
  if (name == "stddev_pop") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kStddevPop; }
  if (name == "variance" || name == "var_samp") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kVarSamp; }
  if (name == "var_pop") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kVarPop; }
  if (name == "median") { GNOMON_RETURN_IF_ERROR(want(1, 1)); return AggKind::kMedian; }
  if (name == "quantile_cont") { GNOMON_RETURN_IF_ERROR(want(2, 2)); return AggKind::kQuantileCont; }
  if (name == "quantile_disc") { GNOMON_RETURN_IF_ERROR(want(2, 2)); return AggKind::kQuantileDisc; }
  // PostgreSQL's ordered-set forms: percentile_cont(p) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (...).
  if (name == "percentile_cont" || name == "percentile_disc") {
    GNOMON_RETURN_IF_ERROR(want(1, 1));
    if (!has_order_by) return Status::InvalidArgument(name + "(fraction) needs WITHIN GROUP (ORDER BY expression)");
    return name == "percentile_cont" ? AggKind::kQuantileCont : AggKind::kQuantileDisc;
  }
  if (name == "mode") { GNOMON_RETURN_IF_ERROR(want(has_order_by ? 0 : 1, 1)); return AggKind::kMode; }
  if (name == "percentile_nearest") { GNOMON_RETURN_IF_ERROR(want(2, 2)); return AggKind::kPercentileNearest; }
  if (name == "arg_percentile_nearest") { GNOMON_RETURN_IF_ERROR(want(3, 3)); return AggKind::kPercentileNearest; }
  return Status::InvalidArgument("unknown aggregate " + name);
}

ValueType AggregateResultType(AggKind kind, ValueType arg) {
  switch (kind) {
    case AggKind::kCountStar:
    case AggKind::kCount: return ValueType::kInt64;
    case AggKind::kSum:
      if (arg == ValueType::kInt64 || arg == ValueType::kBool) return ValueType::kInt64;
      if (arg == ValueType::kUInt64) return ValueType::kUInt64;
      return ValueType::kFloat64;
    case AggKind::kAvg:
    case AggKind::kStddevSamp:
    case AggKind::kStddevPop:
    case AggKind::kVarSamp:
    case AggKind::kVarPop:
    case AggKind::kMedian:
    case AggKind::kQuantileCont: return ValueType::kFloat64;
    default: return arg;
  }
}

bool AnsweredByStats(AggKind kind) {
  switch (kind) {
    case AggKind::kCountStar:
    case AggKind::kCount:
    case AggKind::kSum:
    case AggKind::kMin:
    case AggKind::kMax:
    case AggKind::kAvg: return true;
    default: return false;
  }
}

bool IsHolistic(AggKind kind) {
  switch (kind) {
    case AggKind::kMedian:
    case AggKind::kQuantileCont:
    case AggKind::kQuantileDisc:
    case AggKind::kMode:
    case AggKind::kPercentileNearest: return true;
    default: return false;
  }
}

namespace {

bool IsNullAt(const Vector* v, size_t row) {
  return v == nullptr || v->type == ValueType::kNull || v->IsNull(row);
}

double NumberAt(const Vector& v, size_t row) {
  switch (v.type) {
    case ValueType::kFloat64: return v.f64[row];
    case ValueType::kInt64:
    case ValueType::kTimestamp: return static_cast<double>(v.i64[row]);
    case ValueType::kUInt64: return static_cast<double>(v.u64[row]);
    case ValueType::kBool: return v.b[row];
    default: return 0;
  }
}

}  // namespace

size_t AggState::Update(const AggregateSpec& spec, const Vector* arg, const Vector* key, size_t row) {
  if (IsHolistic(spec.kind)) {
    if (!held) held = std::make_unique<HeldValues>();
    return held->Add(spec, arg, key, row);
  }
  UpdateRunning(spec, arg, key, row);
  return 0;
}

void AggState::UpdateRunning(const AggregateSpec& spec, const Vector* arg, const Vector* key, size_t row) {
  switch (spec.kind) {
    case AggKind::kCountStar: ++count; return;
    case AggKind::kCount:
      if (IsNullAt(arg, row)) return;
      if (spec.distinct) {
        if (!distinct) distinct = std::make_unique<std::unordered_set<std::string>>();
        if (!distinct->insert(GetValue(*arg, row).ToString()).second) return;
      }
      ++count;
      return;
    case AggKind::kSum:
    case AggKind::kAvg: {
      if (IsNullAt(arg, row)) return;
      ++count;
      if (arg->type == ValueType::kInt64 || arg->type == ValueType::kBool) {
        int64_t v = arg->type == ValueType::kBool ? arg->b[row] : arg->i64[row];
        if (__builtin_add_overflow(isum, v, &isum)) int_overflow = true;
      }
      sum += NumberAt(*arg, row);
      return;
    }
    case AggKind::kStddevSamp:
    case AggKind::kStddevPop:
    case AggKind::kVarSamp:
    case AggKind::kVarPop: {
      if (IsNullAt(arg, row)) return;
      double x = NumberAt(*arg, row);
      ++count;
      double d = x - mean;
      mean += d / static_cast<double>(count);
      m2 += d * (x - mean);
      return;
    }
    case AggKind::kMin:
    case AggKind::kMax: {
      if (IsNullAt(arg, row)) return;
      if (arg->type == ValueType::kFloat64 && std::isnan(arg->f64[row])) return;
      if (!has) {
        best = GetValue(*arg, row);
        has = true;
        return;
      }
      bool better;
      switch (arg->type) {
        case ValueType::kInt64:
        case ValueType::kTimestamp:
          better = spec.kind == AggKind::kMin ? arg->i64[row] < best.i : arg->i64[row] > best.i;
          if (better) best.i = arg->i64[row];
          return;
        case ValueType::kFloat64:
          better = spec.kind == AggKind::kMin ? arg->f64[row] < best.f : arg->f64[row] > best.f;
          if (better) best.f = arg->f64[row];
          return;
        default: {
          Value v = GetValue(*arg, row);
          int c = CompareValues(v, best);
          if (spec.kind == AggKind::kMin ? c < 0 : c > 0) best = std::move(v);
          return;
        }
      }
    }
    case AggKind::kFirst:
    case AggKind::kLast:
    case AggKind::kArgMax:
    case AggKind::kArgMin: {
      if (IsNullAt(arg, row) || IsNullAt(key, row)) return;
      Value k = GetValue(*key, row);
      if (has) {
        int c = CompareValues(k, best_key);
        // first/arg_min keep the smallest key (earliest on ties); last/arg_max the largest
        // (the latest row on ties, matching "last write wins").
        bool take = (spec.kind == AggKind::kFirst || spec.kind == AggKind::kArgMin) ? c < 0 : c >= 0;
        if (spec.kind == AggKind::kArgMax) take = c > 0;
        if (!take) return;
      }
      best = GetValue(*arg, row);
      best_key = std::move(k);
      has = true;
      return;
    }
    default: return;  // holistic kinds: Update hands them to HeldValues
  }
}

void AggState::MergeStats(const AggregateSpec& spec, const storage::ColumnStats& s, uint32_t rows) {
  switch (spec.kind) {
    case AggKind::kCountStar: count += rows; return;
    case AggKind::kCount: count += s.count; return;
    case AggKind::kSum:
    case AggKind::kAvg:
      if (s.count == 0) return;
      count += s.count;
      sum += s.sum;
      if (spec.arg->type == ValueType::kInt64 || spec.arg->type == ValueType::kBool) {
        // Segments keep exact sums of int columns; older statistics (a double) are exact below
        // 2^53.
        if (s.isum_exact) {
          if (__builtin_add_overflow(isum, s.isum, &isum)) int_overflow = true;
        } else if (std::fabs(s.sum) >= 9007199254740992.0 ||
                   __builtin_add_overflow(isum, static_cast<int64_t>(s.sum), &isum)) {
          int_overflow = true;
        }
      }
      return;
    case AggKind::kMin:
    case AggKind::kMax: {
      if (s.count == 0 || !s.has_numeric) return;
      Value v;
      if (spec.arg->type == ValueType::kInt64) {
        v = Value::Int(spec.kind == AggKind::kMin ? s.imin : s.imax);
      } else if (spec.arg->type == ValueType::kUInt64) {
        v = Value::UInt(static_cast<uint64_t>(spec.kind == AggKind::kMin ? s.min : s.max));
      } else if (spec.arg->type == ValueType::kBool) {
        v = Value::Bool((spec.kind == AggKind::kMin ? s.min : s.max) != 0);
      } else {
        v = Value::Float(spec.kind == AggKind::kMin ? s.min : s.max);
        if (std::isnan(v.f)) return;
      }
      if (!has) {
        best = v;
        has = true;
      } else {
        int c = CompareValues(v, best);
        if (spec.kind == AggKind::kMin ? c < 0 : c > 0) best = v;
      }
      return;
    }
    default: return;
  }
}

size_t AggState::Merge(const AggregateSpec& spec, const AggState& o) {
  if (IsHolistic(spec.kind)) {
    if (!o.held) return 0;
    if (!held) held = std::make_unique<HeldValues>();
    return held->Merge(*o.held);
  }
  MergeRunning(spec, o);
  return 0;
}

void AggState::MergeRunning(const AggregateSpec& spec, const AggState& o) {
  switch (spec.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount:
      if (spec.distinct && o.distinct) {
        if (!distinct) distinct = std::make_unique<std::unordered_set<std::string>>();
        for (const auto& k : *o.distinct) {
          if (distinct->insert(k).second) ++count;
        }
        return;
      }
      count += o.count;
      return;
    case AggKind::kSum:
    case AggKind::kAvg:
      count += o.count;
      sum += o.sum;
      if (__builtin_add_overflow(isum, o.isum, &isum) || o.int_overflow) int_overflow = true;
      return;
    case AggKind::kStddevSamp:
    case AggKind::kStddevPop:
    case AggKind::kVarSamp:
    case AggKind::kVarPop: {
      if (o.count == 0) return;
      if (count == 0) {
        count = o.count; mean = o.mean; m2 = o.m2;
        return;
      }
      double n = static_cast<double>(count + o.count);
      double d = o.mean - mean;
      m2 += o.m2 + d * d * static_cast<double>(count) * static_cast<double>(o.count) / n;
      mean += d * static_cast<double>(o.count) / n;
      count += o.count;
      return;
    }
    case AggKind::kMin:
    case AggKind::kMax:
      if (!o.has) return;
      if (!has || (spec.kind == AggKind::kMin ? CompareValues(o.best, best) < 0
                                               : CompareValues(o.best, best) > 0)) {
        best = o.best;
        has = true;
      }
      return;
    default: {
      if (!o.has) return;
      bool take = !has;
      if (has) {
        int c = CompareValues(o.best_key, best_key);
        take = (spec.kind == AggKind::kFirst || spec.kind == AggKind::kArgMin) ? c < 0 : c > 0;
      }
      if (take) {
        best = o.best;
        best_key = o.best_key;
        has = true;
      }
      return;
    }
  }
}

Result<Value> AggState::Finalize(const AggregateSpec& spec) const {
  if (IsHolistic(spec.kind)) return held ? held->Finalize(spec) : Value::Null();
  switch (spec.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount: return Value::Int(count);
    case AggKind::kSum:
      if (count == 0) return Value::Null();
      if (spec.result_type == ValueType::kInt64) {
        if (int_overflow) return Status::OutOfRange("sum(" + spec.arg->name + ") overflows int64");
        return Value::Int(isum);
      }
      if (spec.result_type == ValueType::kUInt64) return Value::UInt(static_cast<uint64_t>(sum));
      return Value::Float(sum);
    case AggKind::kAvg:
      if (count == 0) return Value::Null();
      // Integer sums are exact: divide the exact sum when it did not overflow.
      if ((spec.arg->type == ValueType::kInt64 || spec.arg->type == ValueType::kBool) && !int_overflow) {
        return Value::Float(static_cast<double>(isum) / static_cast<double>(count));
      }
      return Value::Float(sum / static_cast<double>(count));
    case AggKind::kStddevSamp:
    case AggKind::kVarSamp: {
      if (count < 2) return Value::Null();
      double var = m2 / static_cast<double>(count - 1);
      return Value::Float(spec.kind == AggKind::kVarSamp ? var : std::sqrt(var));
    }
    case AggKind::kStddevPop:
    case AggKind::kVarPop: {
      if (count < 1) return Value::Null();
      double var = m2 / static_cast<double>(count);
      return Value::Float(spec.kind == AggKind::kVarPop ? var : std::sqrt(var));
    }
    default: return has ? best : Value::Null();
  }
}

Result<Value> AggState::TakeResult(const AggregateSpec& spec) {
  switch (spec.kind) {
    case AggKind::kMin:
    case AggKind::kMax:
    case AggKind::kFirst:
    case AggKind::kLast:
    case AggKind::kArgMax:
    case AggKind::kArgMin:
      return has ? std::move(best) : Value::Null();
    default: return Finalize(spec);
  }
}

}  // namespace gnomon::query
