#include "src/query/execution/scan_operator.h"

#include <cmath>

#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/expression_executor.h"
#include "src/storage/engine.h"

namespace gnomon::query {

std::vector<ScanColumn> ScanColumnsOf(const storage::TableInfo& info) {
  std::vector<ScanColumn> columns;
  for (const storage::ColumnInfo& c : info.columns) {
    const ScanColumn::Kind kind = c.kind == storage::ColumnInfo::Kind::kTime  ? ScanColumn::Kind::kTime
                                  : c.kind == storage::ColumnInfo::Kind::kTag ? ScanColumn::Kind::kTag
                                                                               : ScanColumn::Kind::kField;
    columns.push_back(ScanColumn{kind, c.name, c.type});
  }
  return columns;
}

namespace {

// Appends rows sel[0..k) of a storage column to `v` (typed, no boxing); NULL where the source
// has no value.
void GatherField(const storage::ColumnVector& src, const std::vector<uint32_t>& sel, Vector* v) {
  const size_t before = VectorSize(*v);
  const size_t k = sel.size();
  auto gather = [&](auto& dst, const auto* data) {
    if (data == nullptr) {
      dst.resize(before + k);
      return;
    }
    dst.resize(before + k);
    auto* out = dst.data() + before;
    for (size_t i = 0; i < k; ++i) out[i] = data[sel[i]];
  };
  switch (v->type) {
    case ValueType::kFloat64: gather(v->f64, src.f64); break;
    case ValueType::kInt64: gather(v->i64, src.i64); break;
    case ValueType::kUInt64: gather(v->u64, src.u64); break;
    case ValueType::kBool: gather(v->b, src.b); break;
    case ValueType::kString:
      v->str.reserve(before + k);
      if (src.str) {
        for (uint32_t r : sel) v->str.emplace_back(src.str[r]);
      } else {
        v->str.resize(before + k);
      }
      break;
    default: break;
  }
  const bool all_valid = src.type != ValueType::kNull && src.validity == nullptr;
  if (!all_valid || !v->validity.empty()) {
    if (v->validity.empty()) v->validity.assign(before, 1);
    v->validity.resize(before + k);
    uint8_t* out = v->validity.data() + before;
    for (size_t i = 0; i < k; ++i) out[i] = src.type != ValueType::kNull && src.IsValid(sel[i]) ? 1 : 0;
  }
}

// Appends `n` copies of a series' tag value (NULL when the series lacks the tag). A constant
// vector (a chunk of one series) holds the value once.
void AppendTag(std::string_view tag, size_t n, Vector* v, bool constant) {
  if (constant) {
    if (v->str.empty()) {
      v->constant = true;
      v->str.emplace_back(tag);
      if (tag.empty()) v->validity.assign(1, 0);
    }
    return;
  }
  const size_t before = v->str.size();
  v->str.insert(v->str.end(), n, std::string(tag));
  if (tag.empty()) {
    if (v->validity.empty()) v->validity.assign(before, 1);
    v->validity.resize(before + n, 0);
  } else if (!v->validity.empty()) {
    v->validity.resize(before + n, 1);
  }
}

void CollectColumns(const BoundExpr& e, std::vector<bool>* used) {
  if (e.kind == BoundKind::kColumn && e.column >= 0 && static_cast<size_t>(e.column) < used->size()) {
    (*used)[e.column] = true;
  }
  for (const auto& c : e.children) CollectColumns(*c, used);
}

}  // namespace

class ScanOperator::Consumer final : public storage::ScanConsumer {
 public:
  // one_series: every chunk this consumer fills holds a single series.
  Consumer(const ScanOperator& op, Chunk* out, bool one_series = false)
      : op_(op), out_(out), constant_tags_(one_series && op.constant_tags_) {
    if (op_.prefilter_) {
      // The predicate's input: only the columns it reads are filled, batch by batch.
      std::vector<bool> used(op_.columns_.size(), false);
      CollectColumns(*op_.prefilter_, &used);
      tmp_.columns.resize(op_.columns_.size());
      for (size_t c = 0; c < op_.columns_.size(); ++c) {
        InitVector(&tmp_.columns[c], op_.columns_[c].type);
        if (used[c]) predicate_columns_.push_back(c);
      }
    }
    size_t field = 0;
    for (const ScanColumn& col : op_.columns_) {
      field_of_column_.push_back(col.kind == ScanColumn::Kind::kField ? static_cast<int>(field++) : -1);
    }
  }

  void set_out(Chunk* out) { out_ = out; }

  bool OnBatch(const storage::ColumnBatch& batch) override {
    // The operator is going away (the consumer stopped early): end a background scan.
    if (op_.stop_.load(std::memory_order_relaxed)) return false;
    // per_series_limit counts the rows the scan emits: with a prefilter, those that pass it.
    const size_t limit = op_.per_series_limit_;
    if (limit > 0 && series_rows_ >= limit) return false;
    size_t n = batch.rows;
    if (!op_.prefilter_) {
      if (limit > 0) n = std::min(n, limit - series_rows_);
      series_rows_ += n;
      Append(batch, n);
      return limit == 0 || series_rows_ < limit;
    }
    // Evaluate the predicate over just the columns it reads; then gather only the selected rows
    // of every column from the batch, and repeat the series' tag values for them. Under a
    // per-series limit the batch is tried a slice at a time, so that finding the first passing
    // rows of a series does not evaluate the rest.
    const size_t slice = limit > 0 ? std::max<size_t>(256, 4 * limit) : n;
    selection_.clear();
    for (size_t lo = 0; lo < n && (limit == 0 || series_rows_ + selection_.size() < limit); lo += slice) {
      const size_t hi = std::min(n, lo + slice);
      EvaluatePrefilter(batch, lo, hi);
      if (!status_.ok()) return false;
      for (uint32_t r : slice_selection_) selection_.push_back(static_cast<uint32_t>(lo) + r);
    }
    if (limit > 0 && selection_.size() > limit - series_rows_) selection_.resize(limit - series_rows_);
    series_rows_ += selection_.size();
    if (selection_.empty()) return true;
    for (size_t c = 0; c < op_.columns_.size(); ++c) {
      const ScanColumn& col = op_.columns_[c];
      Vector& v = out_->columns[c];
      switch (col.kind) {
        case ScanColumn::Kind::kTime: {
          const size_t before = v.i64.size();
          v.i64.resize(before + selection_.size());
          for (size_t i = 0; i < selection_.size(); ++i) v.i64[before + i] = batch.times[selection_[i]];
          if (!v.validity.empty()) v.validity.resize(v.i64.size(), 1);
          break;
        }
        case ScanColumn::Kind::kTag:
          AppendTag(op_.reader_->SeriesTag(batch.series, col.name), selection_.size(), &v, constant_tags_);
          break;
        case ScanColumn::Kind::kField:
          GatherField(batch.columns[field_of_column_[c]], selection_, &v);
          break;
      }
    }
    out_->rows += selection_.size();
    return limit == 0 || series_rows_ < limit;
  }

  Status status() const { return status_; }

  // The prefilter over rows [lo, hi) of the batch: slice_selection_ holds the passing rows,
  // relative to lo.
  void EvaluatePrefilter(const storage::ColumnBatch& batch, size_t lo, size_t hi) {
    const size_t n = hi - lo;
    tmp_.rows = n;
    for (size_t c : predicate_columns_) {
      Vector& v = tmp_.columns[c];
      InitVector(&v, op_.columns_[c].type);
      if (op_.columns_[c].kind == ScanColumn::Kind::kTime) {
        v.i64.assign(batch.times + lo, batch.times + hi);
      } else {
        identity_.resize(n);
        for (uint32_t i = 0; i < n; ++i) identity_[i] = static_cast<uint32_t>(lo + i);
        GatherField(batch.columns[field_of_column_[c]], identity_, &v);
      }
    }
    status_ = EvaluateFilter(*op_.prefilter_, tmp_, &slice_selection_);
  }

  // Appends rows [0, n) of `batch` to the output.
  void Append(const storage::ColumnBatch& batch, size_t n) {
    for (size_t c = 0; c < op_.columns_.size(); ++c) {
      const ScanColumn& col = op_.columns_[c];
      Vector& v = out_->columns[c];
      switch (col.kind) {
        case ScanColumn::Kind::kTime:
          v.i64.insert(v.i64.end(), batch.times, batch.times + n);
          if (!v.validity.empty()) v.validity.resize(v.i64.size(), 1);
          break;
        case ScanColumn::Kind::kTag:
          AppendTag(op_.reader_->SeriesTag(batch.series, col.name), n, &v, constant_tags_);
          break;
        case ScanColumn::Kind::kField: {
          const storage::ColumnVector& src = batch.columns[field_of_column_[c]];
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
    out_->rows += n;
  }

  void StartSeries() { series_rows_ = 0; }

 private:
  const ScanOperator& op_;
  Chunk* out_;
  const bool constant_tags_;
  size_t series_rows_ = 0;
  Status status_;
  Chunk tmp_;                          // the predicate's input (its columns only)
  std::vector<size_t> predicate_columns_;
  std::vector<int> field_of_column_;   // per column: its index in the batch, or -1
  std::vector<uint32_t> selection_;
  std::vector<uint32_t> slice_selection_;
  std::vector<uint32_t> identity_;
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

namespace {

// Finds `field op constant` (or `constant op field`) with a numeric field among the AND terms of
// `e`; *spec_column is the field's index among the scan's field columns.
bool FindStoragePredicate(const BoundExpr& e, const std::vector<ScanColumn>& columns,
                          storage::ScanPredicate* out) {
  if (e.kind == BoundKind::kAnd) {
    for (const BoundExprPtr& c : e.children) {
      if (FindStoragePredicate(*c, columns, out)) return true;
    }
    return false;
  }
  if (e.kind != BoundKind::kCompare || e.children.size() != 2) return false;
  const BoundExpr* col = e.children[0].get();
  const BoundExpr* con = e.children[1].get();
  BinaryOp op = e.op;
  if (col->kind == BoundKind::kConstant) {  // constant op column: mirror the comparison
    std::swap(col, con);
    switch (op) {
      case BinaryOp::kLess: op = BinaryOp::kGreater; break;
      case BinaryOp::kLessEqual: op = BinaryOp::kGreaterEqual; break;
      case BinaryOp::kGreater: op = BinaryOp::kLess; break;
      case BinaryOp::kGreaterEqual: op = BinaryOp::kLessEqual; break;
      default: return false;
    }
  }
  if (col->kind != BoundKind::kColumn || con->kind != BoundKind::kConstant || con->constant.is_null()) return false;
  if (col->column < 0 || static_cast<size_t>(col->column) >= columns.size()) return false;
  const ScanColumn& sc = columns[col->column];
  if (sc.kind != ScanColumn::Kind::kField) return false;
  if (sc.type != ValueType::kInt64 && sc.type != ValueType::kUInt64 && sc.type != ValueType::kFloat64) return false;
  const ValueType ct = con->constant.type;
  if (ct != ValueType::kInt64 && ct != ValueType::kUInt64 && ct != ValueType::kFloat64) return false;
  const double v = con->constant.AsDouble();
  if (v != v) return false;
  // Integer constants beyond 2^53 do not survive the double: leave those to the filter.
  if (ct != ValueType::kFloat64 && std::fabs(v) > 9007199254740992.0) return false;
  switch (op) {
    case BinaryOp::kGreater: out->op = storage::ScanPredicate::Op::kGt; break;
    case BinaryOp::kGreaterEqual: out->op = storage::ScanPredicate::Op::kGe; break;
    case BinaryOp::kLess: out->op = storage::ScanPredicate::Op::kLt; break;
    case BinaryOp::kLessEqual: out->op = storage::ScanPredicate::Op::kLe; break;
    default: return false;
  }
  int field = 0;
  for (int i = 0; i < col->column; ++i) field += columns[i].kind == ScanColumn::Kind::kField;
  out->column = field;
  out->value = v;
  return true;
}

}  // namespace

void ScanOperator::SetPrefilter(BoundExprPtr predicate, std::string text) {
  storage::ScanPredicate p;
  if (predicate && FindStoragePredicate(*predicate, columns_, &p)) spec_.predicate = p;
  prefilter_ = std::move(predicate);
  prefilter_text_ = std::move(text);
}

std::string ScanOperator::Describe() const {
  std::string d = "Scan " + table_ + ": " + std::to_string(spec_.series.size()) + " series";
  if (!pushdown_note_.empty()) d += ", " + pushdown_note_;
  if (per_series_limit_ > 0) {
    d += std::string(spec_.newest_first ? ", newest " : ", oldest ") + std::to_string(per_series_limit_) + " rows per series";
  }
  if (prefilter_) d += ", filter before tags: " + prefilter_text_;
  return d;
}

// Background scanning: task i scans series i. Workers take tasks in order, at most kWindow ahead
// of the consumer and while fewer than kMaxRowsAhead finished rows wait for it (large series
// would otherwise hold a streamed answer's memory), and leave each result in its ring slot; the
// consumer takes them in order.
struct ScanOperator::Parallel {
  static constexpr size_t kWindow = 8;
  static constexpr size_t kMaxRowsAhead = 16384;
  struct Task {
    bool ready = false;
    Status status;
    Chunk chunk;
    storage::ScanMetrics metrics;
  };
  std::mutex mu;
  std::condition_variable ready_cv;  // a task finished
  std::condition_variable space_cv;  // the consumer took a task (or stop)
  Task ring[kWindow];
  size_t next_take = 0;  // next task a worker starts
  size_t next_emit = 0;  // next task the consumer takes
  size_t rows_ahead = 0;  // rows of finished tasks the consumer has not taken
  std::vector<std::thread> threads;
};

ScanOperator::~ScanOperator() {
  if (!parallel_) return;
  stop_.store(true);
  {
    std::lock_guard<std::mutex> lock(parallel_->mu);
  }
  parallel_->space_cv.notify_all();
  for (std::thread& t : parallel_->threads) t.join();
}

void ScanOperator::InitChunk(Chunk* chunk) const {
  chunk->rows = 0;
  chunk->columns.assign(columns_.size(), Vector{});
  for (size_t c = 0; c < columns_.size(); ++c) InitVector(&chunk->columns[c], columns_[c].type);
}

void ScanOperator::AddMetrics(const storage::ScanMetrics& metrics) {
  ctx_->stats.series_scanned += metrics.series_scanned;
  ctx_->stats.blocks_decoded += metrics.blocks_decoded;
  ctx_->stats.blocks_pruned += metrics.blocks_pruned;
  ctx_->stats.rows_scanned += metrics.rows_produced;
}

Status ScanOperator::ScanOne(size_t index, Consumer* consumer, storage::ScanMetrics* metrics) const {
  GNOMON_RETURN_IF_ERROR(ctx_->Check());
  storage::ScanSpec one = spec_;
  one.series.assign(1, spec_.series[index]);
  consumer->StartSeries();
  GNOMON_RETURN_IF_ERROR(reader_->Scan(one, consumer, metrics));
  return consumer->status();
}

Status ScanOperator::NextParallel(Chunk* chunk, bool* done) {
  Parallel& p = *parallel_;
  const size_t tasks = spec_.series.size();
  while (true) {
    Parallel::Task task;
    bool inline_scan = false;
    size_t index = 0;
    {
      std::unique_lock<std::mutex> lock(p.mu);
      if (p.next_emit >= tasks) break;
      index = p.next_emit;
      if (p.next_take == index) {
        // No worker has started the task wanted next (they may be waiting for a core): scan it
        // here rather than wait.
        ++p.next_take;
        inline_scan = true;
      } else {
        Parallel::Task& slot = p.ring[index % Parallel::kWindow];
        p.ready_cv.wait(lock, [&] { return slot.ready; });
        task = std::move(slot);
        slot = Parallel::Task{};
        p.rows_ahead -= task.chunk.rows;
        ++p.next_emit;
      }
    }
    if (inline_scan) {
      InitChunk(&task.chunk);
      Consumer consumer(*this, &task.chunk, /*one_series=*/true);
      task.status = ScanOne(index, &consumer, &task.metrics);
      std::lock_guard<std::mutex> lock(p.mu);
      ++p.next_emit;
    }
    p.space_cv.notify_all();
    AddMetrics(task.metrics);
    GNOMON_RETURN_IF_ERROR(task.status);
    if (task.chunk.rows > 0) {
      *chunk = std::move(task.chunk);
      std::lock_guard<std::mutex> lock(p.mu);
      *done = p.next_emit >= tasks;
      return Status::OK();
    }
  }
  InitChunk(chunk);
  *done = true;
  return Status::OK();
}

Status ScanOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!started_) {
    started_ = true;
    // Worth threads only for many series; the workers plus this thread (rendering what they
    // produce) share the machine.
    constexpr size_t kMinParallelSeries = 16;
    const int threads = std::min(ctx_->threads, 2) - 1;
    if (threads >= 1 && spec_.series.size() >= kMinParallelSeries) {
      parallel_ = std::make_unique<Parallel>();
      auto work = [this] {
        Parallel& p = *parallel_;
        Consumer consumer(*this, nullptr, /*one_series=*/true);
        while (true) {
          size_t index;
          {
            std::unique_lock<std::mutex> lock(p.mu);
            p.space_cv.wait(lock, [&] {
              return stop_.load() || p.next_take >= spec_.series.size() ||
                     (p.next_take < p.next_emit + Parallel::kWindow && p.rows_ahead < Parallel::kMaxRowsAhead);
            });
            if (stop_.load() || p.next_take >= spec_.series.size()) return;
            index = p.next_take++;
          }
          Parallel::Task task;
          InitChunk(&task.chunk);
          consumer.set_out(&task.chunk);
          task.status = ScanOne(index, &consumer, &task.metrics);
          task.ready = true;
          {
            std::lock_guard<std::mutex> lock(p.mu);
            p.rows_ahead += task.chunk.rows;
            p.ring[index % Parallel::kWindow] = std::move(task);
          }
          p.ready_cv.notify_all();
        }
      };
      try {
        for (int t = 0; t < threads; ++t) parallel_->threads.emplace_back(work);
      } catch (const std::system_error&) {
        // No thread to be had: the threads that did start (if any) do all the work.
      }
      if (parallel_->threads.empty()) parallel_.reset();
    }
  }
  if (parallel_) return NextParallel(chunk, done);
  InitChunk(chunk);
  Consumer consumer(*this, chunk);
  storage::ScanMetrics metrics;
  while (chunk->rows < kChunkRows && next_series_ < spec_.series.size()) {
    GNOMON_RETURN_IF_ERROR(ScanOne(next_series_++, &consumer, &metrics));
  }
  AddMetrics(metrics);
  *done = next_series_ >= spec_.series.size();
  return Status::OK();
}

void AllowConstantTags(Operator* reader) {
  auto* projection = dynamic_cast<ProjectionOperator*>(reader);
  if (projection == nullptr || !projection->MovesEveryColumn()) return;
  if (auto* scan = dynamic_cast<ScanOperator*>(projection->child())) scan->SetConstantTags(true);
}

}  // namespace gnomon::query
