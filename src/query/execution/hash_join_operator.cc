#include "src/query/execution/hash_join_operator.h"

#include <algorithm>

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/expression_executor.h"

namespace gnomon::query {
namespace {

constexpr uint32_t kNullRow = UINT32_MAX;

// The key vectors of every row of `chunk`.
Status EvaluateKeys(const std::vector<BoundExprPtr>& keys, const Chunk& chunk, std::vector<Vector>* out) {
  out->assign(keys.size(), Vector());
  for (size_t k = 0; k < keys.size(); ++k) GNOMON_RETURN_IF_ERROR(Evaluate(*keys[k], chunk, &(*out)[k]));
  return Status::OK();
}

bool TimeIsNull(const Vector& v, size_t row) { return v.type == ValueType::kNull || v.IsNull(row); }

// Three-way comparison of two times of one type (int64/timestamp or float64).
int CompareTimes(const Vector& a, size_t i, const Vector& b, size_t j) {
  if (a.type == ValueType::kFloat64) return a.f64[i] < b.f64[j] ? -1 : (a.f64[i] > b.f64[j] ? 1 : 0);
  return a.i64[i] < b.i64[j] ? -1 : (a.i64[i] > b.i64[j] ? 1 : 0);
}

void AppendNulls(Vector* v, ValueType type, size_t n) {
  if (v->type != type || VectorSize(*v) != 0) InitVector(v, type);
  FillConstant(v, type, Value::Null(), n);
}

}  // namespace

const char* JoinKindName(JoinKind kind) {
  static constexpr const char* kNames[] = {"Inner", "Left", "Right", "Full", "Semi", "Anti"};
  return kNames[static_cast<int>(kind)];
}

HashJoinOperator::HashJoinOperator(OperatorPtr left, OperatorPtr right, HashJoinSpec spec, ExecutionContext* ctx)
    : left_(std::move(left)), right_(std::move(right)), spec_(std::move(spec)), ctx_(ctx) {
  schema_ = left_->schema();
  if (spec_.kind != JoinKind::kSemi && spec_.kind != JoinKind::kAnti) {
    schema_.insert(schema_.end(), right_->schema().begin(), right_->schema().end());
  }
}

std::string HashJoinOperator::Describe() const {
  std::string d = spec_.asof ? "AsofJoin " : (spec_.left_keys.empty() ? "NestedLoopJoin " : "HashJoin ");
  d += JoinKindName(spec_.kind);
  if (spec_.null_aware) d += " (null-aware)";
  if (!spec_.left_keys.empty() || spec_.asof) d += spec_.build_left ? ", build left" : ", build right";
  return d + (spec_.text.empty() ? ": cross" : ": " + spec_.text);
}

// Which unmatched rows appear with NULLs for the other side, by which side was built.
bool HashJoinOperator::EmitUnmatchedProbe() const {
  switch (spec_.kind) {
    case JoinKind::kLeft: return !spec_.build_left;
    case JoinKind::kRight: return spec_.build_left;
    case JoinKind::kFull: return true;
    default: return false;
  }
}

bool HashJoinOperator::EmitUnmatchedBuild() const {
  switch (spec_.kind) {
    case JoinKind::kLeft: return spec_.build_left;
    case JoinKind::kRight: return !spec_.build_left;
    case JoinKind::kFull: return true;
    default: return false;
  }
}

Status HashJoinOperator::Build() {
  GNOMON_RETURN_IF_ERROR(DrainAll(build(), &build_rows_, ctx_));
  const std::vector<BoundExprPtr>& keys = spec_.build_left ? spec_.left_keys : spec_.right_keys;
  GNOMON_RETURN_IF_ERROR(EvaluateKeys(keys, build_rows_, &build_keys_));
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> valid;
  JoinKeyTable::HashRows(build_keys_, build_rows_.rows, &hashes, &valid);
  if (spec_.asof) GNOMON_RETURN_IF_ERROR(Evaluate(*spec_.right_time, build_rows_, &build_time_));
  std::vector<uint32_t> group_of(build_rows_.rows, kNullRow);
  std::vector<uint32_t> counts;
  for (size_t r = 0; r < build_rows_.rows; ++r) {
    if (!valid[r]) {
      build_has_null_key_ = true;
      continue;
    }
    if (spec_.asof && TimeIsNull(build_time_, r)) continue;
    const uint32_t g = table_.Insert(hashes[r], static_cast<uint32_t>(r));
    if (g == counts.size()) counts.push_back(0);
    group_of[r] = g;
    ++counts[g];
  }
  GNOMON_RETURN_IF_ERROR(ctx_->Reserve(table_.memory_bytes() + build_rows_.rows * 16));
  // Rows grouped by key in one array (counting sort), in input order within a group.
  group_begin_.assign(counts.size() + 1, 0);
  for (size_t g = 0; g < counts.size(); ++g) group_begin_[g + 1] = group_begin_[g] + counts[g];
  group_rows_.resize(group_begin_.back());
  std::vector<uint32_t> fill(group_begin_.begin(), group_begin_.end() - 1);
  for (uint32_t r = 0; r < build_rows_.rows; ++r) {
    if (group_of[r] != kNullRow) group_rows_[fill[group_of[r]]++] = r;
  }
  if (spec_.asof) {
    for (size_t g = 0; g + 1 < group_begin_.size(); ++g) {
      std::stable_sort(group_rows_.begin() + group_begin_[g], group_rows_.begin() + group_begin_[g + 1],
                       [&](uint32_t a, uint32_t b) { return CompareTimes(build_time_, a, build_time_, b) < 0; });
    }
  }
  if (EmitUnmatchedBuild()) build_matched_.assign(build_rows_.rows, 0);
  built_ = true;
  return Status::OK();
}

Status HashJoinOperator::NextProbeChunk(bool* exhausted) {
  probe_chunk_ = Chunk();
  bool done = false;
  while (probe_chunk_.rows == 0 && !done) {
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    GNOMON_RETURN_IF_ERROR(probe()->Next(&probe_chunk_, &done));
  }
  probe_done_ = done;
  *exhausted = probe_chunk_.rows == 0;
  if (*exhausted) return Status::OK();
  const std::vector<BoundExprPtr>& keys = spec_.build_left ? spec_.right_keys : spec_.left_keys;
  std::vector<Vector> probe_keys;
  GNOMON_RETURN_IF_ERROR(EvaluateKeys(keys, probe_chunk_, &probe_keys));
  std::vector<uint64_t> hashes;
  JoinKeyTable::HashRows(probe_keys, probe_chunk_.rows, &hashes, &probe_key_valid_);
  if (spec_.asof) GNOMON_RETURN_IF_ERROR(Evaluate(*spec_.left_time, probe_chunk_, &probe_time_));
  probe_group_.assign(probe_chunk_.rows, -1);
  for (size_t r = 0; r < probe_chunk_.rows; ++r) {
    if (probe_key_valid_[r]) probe_group_[r] = table_.Find(hashes[r], probe_keys, r);
  }
  probe_matched_.assign(probe_chunk_.rows, 0);
  cursor_row_ = cursor_pos_ = 0;
  have_probe_ = true;
  return Status::OK();
}

// The build row an ASOF probe row pairs with, or -1.
int64_t HashJoinOperator::AsofMatch(uint32_t r) const {
  if (probe_group_[r] < 0 || TimeIsNull(probe_time_, r)) return -1;
  const uint32_t* begin = group_rows_.data() + group_begin_[probe_group_[r]];
  const uint32_t* end = group_rows_.data() + group_begin_[probe_group_[r] + 1];
  // Build rows are in ascending time; `before(b)`: build row b's time is below the probe's.
  auto below = [&](uint32_t b) { return CompareTimes(build_time_, b, probe_time_, r) < 0; };
  auto at_most = [&](uint32_t b) { return CompareTimes(build_time_, b, probe_time_, r) <= 0; };
  const uint32_t* lower = std::partition_point(begin, end, below);    // first time >= probe
  const uint32_t* upper = std::partition_point(begin, end, at_most);  // first time > probe
  const uint32_t* match = nullptr;
  switch (spec_.asof_op) {
    case BinaryOp::kGreaterEqual: match = upper == begin ? nullptr : upper - 1; break;  // latest time <= probe
    case BinaryOp::kGreater: match = lower == begin ? nullptr : lower - 1; break;       // latest time < probe
    case BinaryOp::kLessEqual: match = lower == end ? nullptr : lower; break;           // earliest time >= probe
    case BinaryOp::kLess: match = upper == end ? nullptr : upper; break;                // earliest time > probe
    default: break;
  }
  return match == nullptr ? -1 : static_cast<int64_t>(*match);
}

void HashJoinOperator::CollectPairs(std::vector<uint32_t>* probe_rows, std::vector<uint32_t>* build_rows) {
  const bool no_keys = spec_.left_keys.empty();
  for (; cursor_row_ < probe_chunk_.rows && probe_rows->size() < kChunkRows; ++cursor_row_, cursor_pos_ = 0) {
    const uint32_t r = cursor_row_;
    if (spec_.asof) {
      int64_t b = AsofMatch(r);
      if (b >= 0) {
        probe_rows->push_back(r);
        build_rows->push_back(static_cast<uint32_t>(b));
      }
      continue;
    }
    if (probe_group_[r] < 0 && !no_keys) continue;
    const uint32_t g = no_keys ? 0 : static_cast<uint32_t>(probe_group_[r]);
    if (no_keys && group_begin_.size() < 2) continue;  // nothing was built
    const uint32_t begin = group_begin_[g], end = group_begin_[g + 1];
    for (uint32_t k = begin + cursor_pos_; k < end; ++k) {
      if (probe_rows->size() == kChunkRows) {
        cursor_pos_ = k - begin;
        return;  // resume within this row's group
      }
      probe_rows->push_back(r);
      build_rows->push_back(group_rows_[k]);
    }
  }
}

Chunk HashJoinOperator::Combine(const std::vector<uint32_t>& probe_rows, const std::vector<uint32_t>& build_rows,
                                bool with_right) const {
  Chunk out;
  out.rows = probe_rows.size();
  const Chunk& left = spec_.build_left ? build_rows_ : probe_chunk_;
  const Chunk& right = spec_.build_left ? probe_chunk_ : build_rows_;
  const std::vector<uint32_t>& left_idx = spec_.build_left ? build_rows : probe_rows;
  const std::vector<uint32_t>& right_idx = spec_.build_left ? probe_rows : build_rows;
  auto gather = [&](const Operator& side, const Chunk& from, const std::vector<uint32_t>& idx) {
    const bool nulls = !idx.empty() && idx[0] == kNullRow;
    for (size_t c = 0; c < side.schema().size(); ++c) {
      out.columns.emplace_back();
      if (nulls || from.columns.size() <= c) {
        AppendNulls(&out.columns.back(), side.schema()[c].type, out.rows);
      } else {
        GatherRows(from.columns[c], idx.data(), idx.size(), &out.columns.back());
      }
    }
  };
  gather(*left_, left, left_idx);
  if (with_right) gather(*right_, right, right_idx);
  return out;
}

Status HashJoinOperator::EmitPairs(const std::vector<uint32_t>& probe_rows, const std::vector<uint32_t>& build_rows) {
  if (probe_rows.empty()) return Status::OK();
  const bool semi_or_anti = spec_.kind == JoinKind::kSemi || spec_.kind == JoinKind::kAnti;
  // Semi and anti joins test the condition on the pairs but emit probe rows alone.
  Chunk pairs = Combine(probe_rows, build_rows, /*with_right=*/true);
  std::vector<uint32_t> pass;
  if (spec_.residual) {
    GNOMON_RETURN_IF_ERROR(EvaluateFilter(*spec_.residual, pairs, &pass));
  } else {
    pass.resize(probe_rows.size());
    for (uint32_t i = 0; i < pass.size(); ++i) pass[i] = i;
  }
  for (uint32_t i : pass) {
    probe_matched_[probe_rows[i]] = 1;
    if (!build_matched_.empty()) build_matched_[build_rows[i]] = 1;
  }
  if (semi_or_anti || pass.empty()) return Status::OK();
  if (pass.size() < pairs.rows) SelectRows(&pairs, pass);
  ready_.push_back(std::move(pairs));
  return Status::OK();
}

void HashJoinOperator::EmitProbeRows(const std::vector<uint32_t>& rows, bool with_nulls) {
  if (rows.empty()) return;
  std::vector<uint32_t> nulls(with_nulls ? rows.size() : 0, kNullRow);
  ready_.push_back(Combine(rows, with_nulls ? nulls : rows, with_nulls));
}

void HashJoinOperator::EmitUnmatchedBuildRows() {
  std::vector<uint32_t> rows;
  for (; unmatched_build_cursor_ < build_rows_.rows && rows.size() < kChunkRows; ++unmatched_build_cursor_) {
    if (!build_matched_[unmatched_build_cursor_]) rows.push_back(static_cast<uint32_t>(unmatched_build_cursor_));
  }
  if (rows.empty()) return;
  std::vector<uint32_t> nulls(rows.size(), kNullRow);
  ready_.push_back(Combine(nulls, rows, true));
}

Status HashJoinOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!built_) GNOMON_RETURN_IF_ERROR(Build());
  while (ready_.empty() && !finished_) {
    if (!have_probe_) {
      bool exhausted = probe_done_;
      if (!exhausted) GNOMON_RETURN_IF_ERROR(NextProbeChunk(&exhausted));
      if (exhausted) {
        if (EmitUnmatchedBuild() && unmatched_build_cursor_ < build_rows_.rows) {
          EmitUnmatchedBuildRows();
          continue;
        }
        finished_ = true;
        break;
      }
    }
    const bool semi_or_anti = spec_.kind == JoinKind::kSemi || spec_.kind == JoinKind::kAnti;
    if (spec_.null_aware && build_rows_.rows > 0 && build_has_null_key_) {
      have_probe_ = false;  // NOT IN over a set holding NULL: never true
      continue;
    }
    if (semi_or_anti && !spec_.residual && !spec_.left_keys.empty()) {
      // A key match decides alone.
      for (size_t r = 0; r < probe_chunk_.rows; ++r) probe_matched_[r] = probe_group_[r] >= 0;
      cursor_row_ = static_cast<uint32_t>(probe_chunk_.rows);
    } else {
      std::vector<uint32_t> probe_rows, build_rows;
      CollectPairs(&probe_rows, &build_rows);
      GNOMON_RETURN_IF_ERROR(EmitPairs(probe_rows, build_rows));
    }
    if (cursor_row_ < probe_chunk_.rows) continue;
    // The probe chunk is paired through: its rows without a match, where they appear.
    std::vector<uint32_t> rows;
    const bool want_matched = spec_.kind == JoinKind::kSemi;
    if (semi_or_anti || EmitUnmatchedProbe()) {
      for (uint32_t r = 0; r < probe_chunk_.rows; ++r) {
        if (static_cast<bool>(probe_matched_[r]) != want_matched) continue;
        // NOT IN: a NULL key is unknown against a non-empty set.
        if (spec_.null_aware && build_rows_.rows > 0 && !probe_key_valid_[r]) continue;
        rows.push_back(r);
      }
      EmitProbeRows(rows, !semi_or_anti);
    }
    have_probe_ = false;
  }
  if (ready_.empty()) {
    *done = true;
    chunk->rows = 0;
    return Status::OK();
  }
  *chunk = std::move(ready_.front());
  ready_.pop_front();
  *done = false;
  return Status::OK();
}

}  // namespace gnomon::query
