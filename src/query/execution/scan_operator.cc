#include "src/query/execution/scan_operator.h"

#include "src/query/execution/expression_executor.h"

namespace gnomon::query {

class ScanOperator::Consumer final : public storage::ScanConsumer {
 public:
  Consumer(const ScanOperator& op, Chunk* out) : op_(op), out_(out) {}

  bool OnBatch(const storage::ColumnBatch& batch) override {
    size_t n = batch.rows;
    if (op_.per_series_limit_ > 0) {
      if (series_rows_ >= op_.per_series_limit_) return false;
      n = std::min(n, op_.per_series_limit_ - series_rows_);
    }
    series_rows_ += n;
    if (!op_.prefilter_) {
      Append(batch, n, out_, /*skip_tags=*/false);
      return op_.per_series_limit_ == 0 || series_rows_ < op_.per_series_limit_;
    }
    // Filter on times and fields first; only the surviving rows get tag values.
    Chunk tmp;
    tmp.columns.resize(op_.columns_.size());
    for (size_t c = 0; c < op_.columns_.size(); ++c) InitVector(&tmp.columns[c], op_.columns_[c].type);
    Append(batch, n, &tmp, /*skip_tags=*/true);
    status_ = EvaluateFilter(*op_.prefilter_, tmp, &selection_);
    if (!status_.ok()) return false;
    for (size_t c = 0; c < op_.columns_.size(); ++c) {
      const ScanColumn& col = op_.columns_[c];
      Vector& v = out_->columns[c];
      if (col.kind == ScanColumn::Kind::kTag) {
        std::string_view tag = op_.reader_->SeriesTag(batch.series, col.name);
        for (size_t i = 0; i < selection_.size(); ++i) {
          AppendValue(&v, tag.empty() ? Value::Null() : Value::String(std::string(tag)));
        }
      } else {
        for (uint32_t r : selection_) AppendFrom(&v, tmp.columns[c], r);
      }
    }
    out_->rows += selection_.size();
    return true;
  }

  Status status() const { return status_; }

  // Appends rows [0, n) of `batch` to `dst` (tag columns left empty when skip_tags).
  void Append(const storage::ColumnBatch& batch, size_t n, Chunk* dst, bool skip_tags) {
    size_t field = 0;
    for (size_t c = 0; c < op_.columns_.size(); ++c) {
      const ScanColumn& col = op_.columns_[c];
      Vector& v = dst->columns[c];
      if (skip_tags && col.kind == ScanColumn::Kind::kTag) continue;
      switch (col.kind) {
        case ScanColumn::Kind::kTime:
          v.i64.insert(v.i64.end(), batch.times, batch.times + n);
          if (!v.validity.empty()) v.validity.resize(v.i64.size(), 1);
          break;
        case ScanColumn::Kind::kTag: {
          std::string_view tag = op_.reader_->SeriesTag(batch.series, col.name);
          const size_t before = v.str.size();
          v.str.resize(before + n, std::string(tag));
          if (tag.empty()) {
            // A series without this tag: NULL.
            if (v.validity.empty()) v.validity.assign(before, 1);
            v.validity.resize(before + n, 0);
          } else if (!v.validity.empty()) {
            v.validity.resize(before + n, 1);
          }
          break;
        }
        case ScanColumn::Kind::kField: {
          const storage::ColumnVector& src = batch.columns[field++];
          const size_t before = VectorSize(v);
          switch (col.type) {
            case ValueType::kFloat64:
              if (src.f64) v.f64.insert(v.f64.end(), src.f64, src.f64 + n); else v.f64.resize(before + n, 0);
              break;
            case ValueType::kInt64:
              if (src.i64) v.i64.insert(v.i64.end(), src.i64, src.i64 + n); else v.i64.resize(before + n, 0);
              break;
            case ValueType::kUInt64:
              if (src.u64) v.u64.insert(v.u64.end(), src.u64, src.u64 + n); else v.u64.resize(before + n, 0);
              break;
            case ValueType::kBool:
              if (src.b) v.b.insert(v.b.end(), src.b, src.b + n); else v.b.resize(before + n, 0);
              break;
            case ValueType::kString:
              if (src.str) {
                for (size_t r = 0; r < n; ++r) v.str.emplace_back(src.str[r]);
              } else {
                v.str.resize(before + n);
              }
              break;
            default: break;
          }
          const bool all_valid = src.type != ValueType::kNull && src.validity == nullptr;
          if (!all_valid || !v.validity.empty()) {
            if (v.validity.empty()) v.validity.assign(before, 1);
            for (size_t r = 0; r < n; ++r) {
              v.validity.push_back(src.type != ValueType::kNull && src.IsValid(r) ? 1 : 0);
            }
          }
          break;
        }
      }
    }
    dst->rows += n;
  }

  void StartSeries() { series_rows_ = 0; }

 private:
  const ScanOperator& op_;
  Chunk* out_;
  size_t series_rows_ = 0;
  Status status_;
  std::vector<uint32_t> selection_;
};

ScanOperator::ScanOperator(std::shared_ptr<storage::TableReader> reader, std::string table,
                           std::vector<ScanColumn> columns, storage::ScanSpec spec,
                           ExecutionContext* ctx, size_t per_series_limit, std::string note)
    : reader_(std::move(reader)), table_(std::move(table)), columns_(std::move(columns)),
      spec_(std::move(spec)), ctx_(ctx), per_series_limit_(per_series_limit),
      pushdown_note_(std::move(note)) {
  spec_.columns.clear();
  for (const ScanColumn& c : columns_) {
    schema_.push_back(ResultColumn{c.name, c.type});
    if (c.kind == ScanColumn::Kind::kField) spec_.columns.push_back(c.name);
  }
}

std::string ScanOperator::Describe() const {
  std::string d = "Scan " + table_ + ": " + std::to_string(spec_.series.size()) + " series";
  if (!pushdown_note_.empty()) d += ", " + pushdown_note_;
  if (per_series_limit_ > 0) d += ", newest " + std::to_string(per_series_limit_) + " rows per series";
  if (prefilter_) d += ", filter before tags: " + prefilter_text_;
  return d;
}

Status ScanOperator::NextImpl(Chunk* chunk, bool* done) {
  chunk->rows = 0;
  chunk->columns.assign(columns_.size(), Vector{});
  for (size_t c = 0; c < columns_.size(); ++c) InitVector(&chunk->columns[c], columns_[c].type);
  Consumer consumer(*this, chunk);
  storage::ScanSpec one = spec_;
  storage::ScanMetrics metrics;
  while (chunk->rows < kChunkRows && next_series_ < spec_.series.size()) {
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    one.series.assign(1, spec_.series[next_series_++]);
    consumer.StartSeries();
    GNOMON_RETURN_IF_ERROR(reader_->Scan(one, &consumer, &metrics));
    GNOMON_RETURN_IF_ERROR(consumer.status());
  }
  ctx_->stats.series_scanned += metrics.series_scanned;
  ctx_->stats.blocks_decoded += metrics.blocks_decoded;
  ctx_->stats.blocks_pruned += metrics.blocks_pruned;
  ctx_->stats.rows_scanned += metrics.rows_produced;
  *done = next_series_ >= spec_.series.size();
  return Status::OK();
}

}  // namespace gnomon::query
