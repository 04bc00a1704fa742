#include "src/query/execution/sort_operator.h"

#include <algorithm>

#include "src/query/execution/scan_operator.h"

namespace gnomon::query {

SortOperator::SortOperator(OperatorPtr child, std::vector<SortKey> keys, int64_t top_n, ExecutionContext* ctx,
                           std::string text)
    : child_(std::move(child)), keys_(std::move(keys)), top_n_(top_n), ctx_(ctx), text_(std::move(text)) {
  schema_ = child_->schema();
  AllowConstantTags(child_.get());  // SortedRows reads constant vectors
}

std::string SortOperator::Describe() const {
  return (top_n_ >= 0 ? "TopN " + std::to_string(top_n_) : std::string("Sort")) + ": " + text_;
}

Status SortOperator::NextImpl(Chunk* chunk, bool* done) {
  if (!sorted_) {
    GNOMON_RETURN_IF_ERROR(rows_.Load(child_.get(), ctx_));
    rows_.Sort(keys_, top_n_);
    sorted_ = true;
  }
  const size_t end = std::min(rows_.size(), emitted_ + kChunkRows);
  rows_.Emit(emitted_, end, schema_, chunk);
  emitted_ = end;
  *done = emitted_ >= rows_.size();
  return Status::OK();
}

}  // namespace gnomon::query
