#include "src/query/execution/gap_fill_operator.h"

#include <algorithm>
#include <cmath>

#include "src/query/execution/basic_operators.h"

namespace gnomon::query {
namespace {

// A generous bound on the rows gap filling may make: a mistaken range fails clearly instead of
// filling memory.
constexpr size_t kMaxFilledRows = 10'000'000;

}  // namespace

ValueType FilledType(ValueType source, bool interpolate) {
  return interpolate && source != ValueType::kInt64 && source != ValueType::kFloat64 ? ValueType::kFloat64 : source;
}

GapFillOperator::GapFillOperator(OperatorPtr child, GapFillSpec spec, ExecutionContext* ctx)
    : child_(std::move(child)), spec_(std::move(spec)), ctx_(ctx) {
  schema_ = child_->schema();
  for (const GapFillSpec::Fill& f : spec_.fills) {
    schema_.push_back(ResultColumn{f.name, FilledType(schema_[f.column].type, f.interpolate)});
  }
}

namespace {

// to[i] = from[rows[i].row], or T{} for a gap (whose validity byte the caller clears).
template <typename T>
void GatherOrGap(const std::vector<T>& from, const std::vector<GapFillOperator::OutputRow>& rows, bool group,
                 std::vector<T>* to) {
  to->resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    (*to)[i] = rows[i].gap && !group ? T{} : from[rows[i].row];
  }
}

}  // namespace

// Column by column, typed: an input row's values; a gap's bucket, its group's key values, NULL
// elsewhere.
void GapFillOperator::Materialize(const Chunk& in, const std::vector<OutputRow>& rows) {
  out_.rows = rows.size();
  for (size_t c = 0; c < in.columns.size(); ++c) {
    const Vector& from = in.columns[c];
    Vector& to = out_.columns[c];
    const bool bucket = static_cast<int>(c) == spec_.bucket_column;
    const bool group = is_group_[c];
    if (bucket) {
      to.i64.resize(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) to.i64[i] = rows[i].gap ? rows[i].bucket : from.i64[rows[i].row];
    } else {
      switch (to.type) {
        case ValueType::kInt64:
        case ValueType::kTimestamp: GatherOrGap(from.i64, rows, group, &to.i64); break;
        case ValueType::kFloat64: GatherOrGap(from.f64, rows, group, &to.f64); break;
        case ValueType::kUInt64: GatherOrGap(from.u64, rows, group, &to.u64); break;
        case ValueType::kBool: GatherOrGap(from.b, rows, group, &to.b); break;
        case ValueType::kString: GatherOrGap(from.str, rows, group, &to.str); break;
        case ValueType::kNull: break;
      }
    }
    const bool gaps_null = !bucket && !group;
    if (to.type == ValueType::kNull) {
      to.validity.assign(rows.size(), 0);
    } else if (!from.validity.empty() || gaps_null) {
      to.validity.resize(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) {
        to.validity[i] = rows[i].gap ? (gaps_null ? 0 : (bucket ? 1 : !from.IsNull(rows[i].row)))
                                     : !from.IsNull(rows[i].row);
      }
    }
  }
}

// Rows [begin, end) of the output are one group in bucket order.
void GapFillOperator::FillColumn(const GapFillSpec::Fill& fill, size_t begin, size_t end, Vector* out) const {
  const Vector& src = out_.columns[fill.column];
  const Vector& time = out_.columns[spec_.bucket_column];
  const ValueType type = FilledType(schema_[fill.column].type, fill.interpolate);
  auto present = [&](size_t r) { return src.type != ValueType::kNull && !src.IsNull(r); };
  if (!fill.interpolate) {
    Value last;
    for (size_t r = begin; r < end; ++r) {
      if (present(r)) last = GetValue(src, r);
      AppendValue(out, last);
    }
    return;
  }
  const bool numeric = src.type == ValueType::kFloat64 || src.type == ValueType::kInt64 || src.type == ValueType::kUInt64;
  auto number = [&](size_t r) { return GetValue(src, r).AsDouble(); };
  // next_present[r - begin]: the first row at or after r with a value (end if none), in one
  // backward pass, so a long run of gaps costs its length and not its square.
  std::vector<size_t> next_present(end - begin + 1, end);
  for (size_t r = end; r-- > begin;) next_present[r - begin] = numeric && present(r) ? r : next_present[r - begin + 1];
  size_t prev = SIZE_MAX;
  for (size_t r = begin; r < end; ++r) {
    if (numeric && present(r)) {
      prev = r;
      AppendValue(out, type == ValueType::kFloat64 ? Value::Float(number(r)) : GetValue(src, r));
      continue;
    }
    const size_t next = next_present[r - begin];
    if (!numeric || prev == SIZE_MAX || next >= end) {
      AppendNull(out);
      continue;
    }
    const double t0 = static_cast<double>(time.i64[prev]), t1 = static_cast<double>(time.i64[next]);
    const double v = number(prev) + (number(next) - number(prev)) * (static_cast<double>(time.i64[r]) - t0) / (t1 - t0);
    AppendValue(out, type == ValueType::kFloat64 ? Value::Float(v) : Value::Int(static_cast<int64_t>(std::llround(v))));
  }
}

Status GapFillOperator::Fill() {
  Chunk in;
  GNOMON_RETURN_IF_ERROR(DrainAll(child_.get(), &in, ctx_));
  std::vector<SortKey> keys = spec_.group_order;
  if (keys.empty()) {
    for (int g : spec_.group_columns) keys.push_back(SortKey{g, false, false});
  }
  keys.push_back(SortKey{spec_.bucket_column, false, false});
  std::vector<uint32_t> order(in.rows);
  for (uint32_t i = 0; i < in.rows; ++i) order[i] = i;
  // An aggregate's output often comes in this order already (series by series, buckets ascending).
  auto less = [&](uint32_t a, uint32_t b) { return CompareRows(in, a, b, keys) < 0; };
  if (!std::is_sorted(order.begin(), order.end(), less)) std::stable_sort(order.begin(), order.end(), less);
  std::vector<SortKey> group_keys(keys.begin(), keys.end() - 1);
  is_group_.assign(in.columns.size(), false);
  for (int g : spec_.group_columns) is_group_[g] = true;

  out_.columns.resize(child_->schema().size());
  // As the rows' own types (a column the schema calls NULL-typed may carry values).
  for (size_t c = 0; c < out_.columns.size(); ++c) {
    InitVector(&out_.columns[c], in.rows > 0 ? in.columns[c].type : child_->schema()[c].type);
  }
  const int64_t first = spec_.bucket.Apply(spec_.start);
  const Vector& bucket = in.columns[spec_.bucket_column];
  size_t groups = 1;
  for (size_t k = 1; k < order.size(); ++k) groups += CompareRows(in, order[k - 1], order[k], group_keys) != 0;
  // Count what the filled answer will hold before making it: past the memory limit or the row
  // bound, the query ends here with a clear error.
  double buckets = 0;
  if (spec_.bucket.width > 0) {
    buckets = std::max(0.0, (static_cast<double>(spec_.end) - static_cast<double>(first)) /
                                static_cast<double>(spec_.bucket.width));
  } else {
    for (int64_t b = first; b < spec_.end && buckets <= kMaxFilledRows; b = spec_.bucket.BucketEnd(b)) ++buckets;
  }
  const double rows = buckets * static_cast<double>(groups) + static_cast<double>(in.rows);
  if (rows > static_cast<double>(kMaxFilledRows)) {
    return Status::ResourceExhausted("gap filling would make about " + std::to_string(static_cast<int64_t>(rows)) +
                                     " rows, more than " + std::to_string(kMaxFilledRows) +
                                     "; narrow the time range or widen the buckets");
  }
  GNOMON_RETURN_IF_ERROR(ctx_->Reserve(static_cast<size_t>(rows) * schema_.size() * 16));
  std::vector<OutputRow> plan;
  plan.reserve(static_cast<size_t>(rows));
  size_t i = 0;
  while (i < order.size()) {
    size_t j = i + 1;
    while (j < order.size() && CompareRows(in, order[i], order[j], group_keys) == 0) ++j;
    group_begin_.push_back(plan.size());
    // Merge the group's rows with every bucket start in range.
    int64_t b = first;
    for (size_t k = i; k < j; ++k) {
      const bool null_bucket = bucket.IsNull(order[k]);
      const int64_t t = null_bucket ? 0 : bucket.i64[order[k]];
      while (!null_bucket && b < spec_.end && b < t) {
        plan.push_back(OutputRow::Gap(order[i], b));
        b = spec_.bucket.BucketEnd(b);
      }
      plan.push_back(OutputRow::Input(order[k]));
      if (!null_bucket && b == t) b = spec_.bucket.BucketEnd(b);
    }
    for (; b < spec_.end; b = spec_.bucket.BucketEnd(b)) plan.push_back(OutputRow::Gap(order[i], b));
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    i = j;
  }
  // Without any input row there are no groups; without GROUP BY keys other than the bucket the
  // single group still gets every bucket.
  if (in.rows == 0 && spec_.group_columns.empty()) {
    group_begin_.push_back(0);
    for (int64_t b = first; b < spec_.end; b = spec_.bucket.BucketEnd(b)) plan.push_back(OutputRow::Gap(0, b));
  }
  group_begin_.push_back(plan.size());
  Materialize(in, plan);
  for (const GapFillSpec::Fill& f : spec_.fills) {
    Vector filled;
    InitVector(&filled, schema_[out_.columns.size()].type);
    for (size_t g = 0; g + 1 < group_begin_.size(); ++g) FillColumn(f, group_begin_[g], group_begin_[g + 1], &filled);
    out_.columns.push_back(std::move(filled));
  }
  filled_ = true;
  return Status::OK();
}

Status GapFillOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!filled_) GNOMON_RETURN_IF_ERROR(Fill());
  std::vector<uint32_t> rows;
  for (size_t r = emitted_; r < out_.rows && rows.size() < kChunkRows; ++r) rows.push_back(static_cast<uint32_t>(r));
  chunk->rows = rows.size();
  chunk->columns.resize(schema_.size());
  for (size_t c = 0; c < schema_.size(); ++c) GatherRows(out_.columns[c], rows.data(), rows.size(), &chunk->columns[c]);
  emitted_ += rows.size();
  *done = emitted_ >= out_.rows;
  return Status::OK();
}

}  // namespace gnomon::query
