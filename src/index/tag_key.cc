#include "src/index/tag_key.h"

namespace gnomon::index {

uint32_t TagKey::InternValue(std::string_view value, uint64_t value_hash, Arena* arena) {
  if (auto id = FindValue(value, value_hash)) return *id;
  auto id = static_cast<uint32_t>(values_.size());
  values_.push_back(arena->CopyLengthPrefixed(value));
  index_.Insert(value_hash, id);
  postings_.GrowTo(id + 1);
  return id;
}

size_t TagKey::MemoryUsage() const {
  size_t bytes = sizeof(*this) + values_.MemoryUsage() + index_.MemoryUsage() + postings_.MemoryUsage();
  for (size_t v = 0; v < postings_.size(); ++v) bytes += postings_[v].MemoryUsage();
  return bytes;
}

}  // namespace gnomon::index
