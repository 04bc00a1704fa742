#include "src/index/tag_key.h"

namespace gnomon::index {

uint32_t TagKey::InternValue(std::string_view value, uint64_t value_hash, Arena* arena) {
  if (auto id = FindValue(value, value_hash)) return *id;
  auto id = static_cast<uint32_t>(values_.size());
  values_.push_back(arena->CopyString(value));
  index_.Insert(value_hash, id);
  postings_.emplace_back();
  return id;
}

size_t TagKey::MemoryUsage() const {
  size_t bytes = sizeof(*this) + values_.MemoryUsage() + index_.MemoryUsage() +
                 postings_.capacity() * sizeof(PostingList);
  for (const PostingList& p : postings_) bytes += p.MemoryUsage();
  return bytes;
}

}  // namespace gnomon::index
