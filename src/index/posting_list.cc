#include "src/index/posting_list.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "src/base/check.h"

namespace gnomon::index {

PostingList::PostingList(PostingList&& o) noexcept
    : count_(o.count_), capacity_(o.capacity_) {
  std::memcpy(static_cast<void*>(&array_), &o.array_, sizeof(array_));  // whichever member is live
  o.count_ = 0;
  o.capacity_ = 0;
}

PostingList& PostingList::operator=(PostingList&& o) noexcept {
  if (this != &o) {
    Release();
    count_ = std::exchange(o.count_, 0);
    capacity_ = std::exchange(o.capacity_, 0);
    std::memcpy(static_cast<void*>(&array_), &o.array_, sizeof(array_));
  }
  return *this;
}

void PostingList::Release() {
  if (IsBitmap()) {
    delete bitmap_;
  } else if (count_ >= 2) {
    delete[] array_;
  }
  count_ = 0;
  capacity_ = 0;
}

void PostingList::Add(uint32_t id) {
  if (count_ == 0) {
    single_ = id;
  } else if (count_ == 1) {
    GNOMON_DCHECK(id > single_);
    uint32_t first = single_;
    capacity_ = 4;
    array_ = new uint32_t[capacity_];
    array_[0] = first;
    array_[1] = id;
  } else if (count_ < kMaxArray) {
    GNOMON_DCHECK(id > array_[count_ - 1]);
    if (count_ == capacity_) {
      uint32_t* grown = new uint32_t[capacity_ * 2];
      std::memcpy(grown, array_, count_ * sizeof(uint32_t));
      delete[] array_;
      array_ = grown;
      capacity_ *= 2;
    }
    array_[count_] = id;
  } else if (count_ == kMaxArray) {
    auto* bitmap = new Roaring(count_, array_);
    bitmap->add(id);
    delete[] array_;
    bitmap_ = bitmap;
    capacity_ = 0;
  } else {
    bitmap_->add(id);
    // Ids arrive in order, so long lists are often dense runs: compact them into run containers
    // now and then (at powers of two, so the cost stays amortised O(1) per id).
    uint32_t n = count_ + 1;
    if (n >= 4096 && (n & (n - 1)) == 0) {
      bitmap_->runOptimize();
      bitmap_->shrinkToFit();
    }
  }
  ++count_;
}

bool PostingList::Contains(uint32_t id) const {
  if (count_ == 0) return false;
  if (count_ == 1) return single_ == id;
  if (IsBitmap()) return bitmap_->contains(id);
  return std::binary_search(array_, array_ + count_, id);
}

Roaring PostingList::ToRoaring() const {
  if (count_ == 0) return Roaring();
  if (count_ == 1) return Roaring(1, &single_);
  if (IsBitmap()) return *bitmap_;
  return Roaring(count_, array_);
}

void PostingList::AppendTo(std::vector<uint32_t>* out) const {
  if (count_ == 0) return;
  if (count_ == 1) {
    out->push_back(single_);
  } else if (IsBitmap()) {
    size_t at = out->size();
    out->resize(at + count_);
    bitmap_->toUint32Array(out->data() + at);
  } else {
    out->insert(out->end(), array_, array_ + count_);
  }
}

size_t PostingList::MemoryUsage() const {
  if (IsBitmap()) return sizeof(Roaring) + bitmap_->getSizeInBytes(false);
  if (count_ >= 2) return capacity_ * sizeof(uint32_t);
  return 0;
}

}  // namespace gnomon::index
