#include "src/query/execution/set_operation_operator.h"

#include "src/query/execution/basic_operators.h"
#include "src/query/execution/expression_executor.h"

namespace gnomon::query {

const char* SetOperationName(SetOperationKind kind) {
  static constexpr const char* kNames[] = {"Union All", "Union", "Intersect", "Intersect All", "Except",
                                           "Except All"};
  return kNames[static_cast<int>(kind)];
}

SetOperationOperator::SetOperationOperator(OperatorPtr left, OperatorPtr right, SetOperationKind kind,
                                           ExecutionContext* ctx)
    : left_(std::move(left)), right_(std::move(right)), kind_(kind), ctx_(ctx) {
  schema_ = left_->schema();
  for (size_t c = 0; c < schema_.size(); ++c) all_columns_.push_back(static_cast<int>(c));
}

Status SetOperationOperator::CountRight() {
  bool done = false;
  std::string key;
  while (!done) {
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    Chunk chunk;
    GNOMON_RETURN_IF_ERROR(right_->Next(&chunk, &done));
    for (size_t r = 0; r < chunk.rows; ++r) {
      key.clear();
      AppendRowKeyOf(chunk, r, all_columns_, &key);
      auto [it, inserted] = right_counts_.try_emplace(key, 0);
      if (inserted) GNOMON_RETURN_IF_ERROR(ctx_->Reserve(key.size() + 48));
      ++it->second;
    }
  }
  counted_ = true;
  return Status::OK();
}

bool SetOperationOperator::Keep(const std::string& key) {
  switch (kind_) {
    case SetOperationKind::kUnionAll: return true;
    case SetOperationKind::kUnion: return emitted_.insert(key).second;
    case SetOperationKind::kIntersect: return right_counts_.count(key) > 0 && emitted_.insert(key).second;
    case SetOperationKind::kExcept: return right_counts_.count(key) == 0 && emitted_.insert(key).second;
    case SetOperationKind::kIntersectAll: {
      // As many copies as both sides have.
      auto it = right_counts_.find(key);
      if (it == right_counts_.end() || it->second == 0) return false;
      --it->second;
      return true;
    }
    case SetOperationKind::kExceptAll: {
      // The left's copies less the right's.
      auto it = right_counts_.find(key);
      if (it == right_counts_.end() || it->second == 0) return true;
      --it->second;
      return false;
    }
  }
  return true;
}

Status SetOperationOperator::NextImpl(Chunk* chunk, bool* done) {
  const bool reads_right_first = kind_ != SetOperationKind::kUnionAll && kind_ != SetOperationKind::kUnion;
  if (reads_right_first && !counted_) GNOMON_RETURN_IF_ERROR(CountRight());
  std::string key;
  while (true) {
    GNOMON_RETURN_IF_ERROR(ctx_->Check());
    bool input_done = false;
    // UNION reads the left input, then the right; the others only the left (the right is counted).
    Operator* input = left_done_ ? right_.get() : left_.get();
    GNOMON_RETURN_IF_ERROR(input->Next(chunk, &input_done));
    if (kind_ != SetOperationKind::kUnionAll && chunk->rows > 0) {
      std::vector<uint32_t> keep;
      for (uint32_t r = 0; r < chunk->rows; ++r) {
        key.clear();
        AppendRowKeyOf(*chunk, r, all_columns_, &key);
        if (Keep(key)) keep.push_back(r);
      }
      if (kind_ == SetOperationKind::kUnion) GNOMON_RETURN_IF_ERROR(ctx_->Reserve(keep.size() * 48));
      if (keep.size() < chunk->rows) SelectRows(chunk, keep);
    }
    if (input_done) {
      if (!left_done_ && !reads_right_first) {
        left_done_ = true;
      } else {
        *done = true;
        return Status::OK();
      }
    }
    if (chunk->rows > 0) return Status::OK();
  }
}

}  // namespace gnomon::query
