#include "src/query/execution/merge_join_operator.h"

#include <cmath>

namespace gnomon::query {
namespace {

bool IsNull(const Vector& v, size_t row) { return v.type == ValueType::kNull || v.IsNull(row); }

// Three-way comparison of two non-NULL keys of one type class.
int CompareKeys(const Vector& a, size_t i, const Vector& b, size_t j) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  switch (a.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: return cmp(a.i64[i], b.i64[j]);
    case ValueType::kUInt64: return cmp(a.u64[i], b.u64[j]);
    case ValueType::kFloat64: {
      // As the sort orders them: NaN after every number, and equal to NaN.
      const bool x = std::isnan(a.f64[i]), y = std::isnan(b.f64[j]);
      if (x || y) return x == y ? 0 : (x ? 1 : -1);
      return cmp(a.f64[i], b.f64[j]);
    }
    case ValueType::kBool: return cmp(a.b[i], b.b[j]);
    case ValueType::kString: {
      const int c = a.str[i].compare(b.str[j]);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case ValueType::kNull: return 0;
  }
  return 0;
}

}  // namespace

Status MergeJoinOperator::Cursor::Fill(ExecutionContext* ctx) {
  while (AtEnd() && !done) {
    GNOMON_RETURN_IF_ERROR(ctx->Check());
    chunk = Chunk();
    row = 0;
    GNOMON_RETURN_IF_ERROR(op->Next(&chunk, &done));
  }
  return Status::OK();
}

MergeJoinOperator::MergeJoinOperator(OperatorPtr left, OperatorPtr right, int left_key, int right_key, JoinKind kind,
                                     std::string text, ExecutionContext* ctx)
    : left_(std::move(left)), right_(std::move(right)), left_key_(left_key), right_key_(right_key), kind_(kind),
      text_(std::move(text)), ctx_(ctx) {
  schema_ = left_->schema();
  width_left_ = schema_.size();
  schema_.insert(schema_.end(), right_->schema().begin(), right_->schema().end());
  l_.op = left_.get();
  r_.op = right_.get();
  out_.columns.resize(schema_.size());
  for (size_t c = 0; c < schema_.size(); ++c) InitVector(&out_.columns[c], schema_[c].type);
  group_.columns.resize(right_->schema().size());
}

std::string MergeJoinOperator::Describe() const {
  return std::string("MergeJoin ") + JoinKindName(kind_) + ": " + text_;
}

Status MergeJoinOperator::CollectGroup() {
  group_.rows = 0;
  for (size_t c = 0; c < group_.columns.size(); ++c) InitVector(&group_.columns[c], right_->schema()[c].type);
  group_has_key_ = false;
  const Vector& lk = l_.chunk.columns[left_key_];
  // Skip right rows below the key (and NULL keys, which sort last and match nothing).
  while (true) {
    GNOMON_RETURN_IF_ERROR(r_.Fill(ctx_));
    if (r_.AtEnd()) return Status::OK();
    const Vector& rk = r_.chunk.columns[right_key_];
    if (IsNull(rk, r_.row)) {
      r_.row = r_.chunk.rows;  // NULLs are last: nothing after them matches
      r_.done = true;
      return Status::OK();
    }
    if (CompareKeys(rk, r_.row, lk, l_.row) >= 0) break;
    ++r_.row;
  }
  // Take every right row equal to the key, across chunks.
  while (true) {
    GNOMON_RETURN_IF_ERROR(r_.Fill(ctx_));
    if (r_.AtEnd()) break;
    const Vector& rk = r_.chunk.columns[right_key_];
    if (IsNull(rk, r_.row) || CompareKeys(rk, r_.row, lk, l_.row) != 0) break;
    for (size_t c = 0; c < group_.columns.size(); ++c) AppendFrom(&group_.columns[c], r_.chunk.columns[c], r_.row);
    ++group_.rows;
    ++r_.row;
  }
  if (group_.rows > 0) {
    GNOMON_RETURN_IF_ERROR(ctx_->Reserve(group_.rows * group_.columns.size() * 16));
    group_has_key_ = true;
  }
  return Status::OK();
}

void MergeJoinOperator::EmitRow(size_t group_row, bool right_null) {
  for (size_t c = 0; c < width_left_; ++c) AppendFrom(&out_.columns[c], l_.chunk.columns[c], l_.row);
  for (size_t c = 0; c < group_.columns.size(); ++c) {
    if (right_null) {
      AppendNull(&out_.columns[width_left_ + c]);
    } else {
      AppendFrom(&out_.columns[width_left_ + c], group_.columns[c], group_row);
    }
  }
  ++out_.rows;
}

void MergeJoinOperator::Flush(Chunk* chunk) {
  *chunk = std::move(out_);
  out_ = Chunk();
  out_.columns.resize(schema_.size());
  for (size_t c = 0; c < schema_.size(); ++c) InitVector(&out_.columns[c], schema_[c].type);
}

Status MergeJoinOperator::NextImpl(Chunk* chunk, bool* done) {
  while (out_.rows < kChunkRows) {
    GNOMON_RETURN_IF_ERROR(l_.Fill(ctx_));
    if (l_.AtEnd()) break;
    const Vector& lk = l_.chunk.columns[left_key_];
    const bool null_key = IsNull(lk, l_.row);
    if (!null_key && !(group_has_key_ && CompareKeys(group_.columns[right_key_], 0, lk, l_.row) == 0)) {
      GNOMON_RETURN_IF_ERROR(CollectGroup());
    }
    const bool matched = !null_key && group_has_key_;
    if (matched) {
      for (size_t g = 0; g < group_.rows; ++g) EmitRow(g, false);
    } else if (kind_ == JoinKind::kLeft) {
      EmitRow(0, true);
    }
    ++l_.row;
  }
  *done = l_.AtEnd() && l_.done;
  Flush(chunk);
  return Status::OK();
}

}  // namespace gnomon::query
