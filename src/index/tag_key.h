// TagKey: one tag key of a table, with the distinct values it takes (interned: value -> dense
// local id) and, for each value, the posting list of series carrying key=value.
//
// Values get ids local to their key rather than ids from one global symbol table: a value almost
// always belongs to a single key (a hostname, a region), so per-key ids let postings live in a
// plain array indexed by value id, with no (key, value) -> postings map at all.
//
// Thread-safety: Find/Intern/postings need the registry's lock (shared for reads, exclusive for
// writes). name() and Value(id) read immutable, never-moving memory and need no lock once the id
// was published to the reader (see StableVector).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "src/base/chunked_array.h"
#include "src/index/arena.h"
#include "src/index/hash_index.h"
#include "src/index/posting_list.h"
#include "src/index/stable_vector.h"

namespace gnomon::index {

class TagKey {
 public:
  // `name` must live as long as the TagKey (the registry's arena holds it).
  explicit TagKey(std::string_view name) : name_(name) {}

  std::string_view name() const { return name_; }
  std::string_view Value(uint32_t value_id) const { return Arena::LengthPrefixedAt(values_[value_id]); }

  // Writer-side count of values.
  uint32_t value_count() const { return static_cast<uint32_t>(values_.size()); }

  std::optional<uint32_t> FindValue(std::string_view value, uint64_t value_hash) const {
    return index_.Find(value_hash, [&](uint32_t id) { return Value(id) == value; });
  }
  // Returns the id of `value`, adding it (copied into `arena`) if new.
  uint32_t InternValue(std::string_view value, uint64_t value_hash, Arena* arena);

  const PostingList& postings(uint32_t value_id) const { return postings_[value_id]; }
  PostingList& postings(uint32_t value_id) { return postings_[value_id]; }

  size_t MemoryUsage() const;

 private:
  std::string_view name_;
  StableVector<const char*> values_;  // length-prefixed, in the registry's arena
  HashIndex index_;
  // 4 KB chunks: a key of ten million values (a hostname) grows without copying its postings,
  // and a key of a few values costs one chunk.
  ChunkedArray<PostingList, 256> postings_;
};

}  // namespace gnomon::index
