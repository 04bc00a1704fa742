// PostingList: the ascending series ids that carry one tag key=value. Sized to the list: one id
// inline (the common case for unique tags such as a hostname), a small sorted array, then a
// Roaring bitmap once it would be smaller. 16 bytes when it holds at most one id.
//
// Thread-safety: none (the registry's lock guards it).
#pragma once

#include <cstdint>
#include <vector>

#include <roaring/roaring.hh>

namespace gnomon::index {

class PostingList {
 public:
  PostingList() = default;
  ~PostingList() { Release(); }
  PostingList(PostingList&& o) noexcept;
  PostingList& operator=(PostingList&& o) noexcept;
  PostingList(const PostingList&) = delete;
  PostingList& operator=(const PostingList&) = delete;

  // REQUIRES: id is greater than every id already added (ids are assigned in ascending order).
  void Add(uint32_t id);

  uint64_t cardinality() const { return count_; }
  bool Contains(uint32_t id) const;
  Roaring ToRoaring() const;
  void AppendTo(std::vector<uint32_t>* out) const;
  // Heap bytes held besides the 16 bytes of the object itself.
  size_t MemoryUsage() const;

 private:
  // A list longer than this becomes a bitmap (4 bytes an id in the array vs ~2 or fewer in Roaring
  // containers, plus the bitmap's fixed overhead of ~100 bytes).
  static constexpr uint32_t kMaxArray = 64;

  void Release();
  bool IsBitmap() const { return count_ > kMaxArray; }

  uint32_t count_ = 0;
  uint32_t capacity_ = 0;  // of array_, when 2 <= count_ <= kMaxArray
  union {
    uint32_t single_;   // count_ == 1
    uint32_t* array_;   // 2 <= count_ <= kMaxArray
    Roaring* bitmap_;   // count_ > kMaxArray
  };
};

}  // namespace gnomon::index
