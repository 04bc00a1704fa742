// Keeping a subset of rows in column vectors: shared by deletes (memtables and segment
// rewrites) and by scans that drop rows answered from statistics.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gnomon::storage {

// Keeps, in order, the elements whose `keep` flag is non-zero. An empty vector (an absent
// column, or validity that was never materialised) stays empty.
template <typename T>
void KeepFlagged(std::vector<T>* v, const std::vector<uint8_t>& keep) {
  if (v->empty()) return;
  size_t w = 0;
  for (size_t r = 0; r < keep.size(); ++r) {
    if (!keep[r]) continue;
    if (w != r) (*v)[w] = std::move((*v)[r]);  // a self-move would empty a string
    ++w;
  }
  v->resize(w);
}

// Keeps elements [begin, end). An empty vector stays empty.
template <typename T>
void KeepRange(std::vector<T>* v, size_t begin, size_t end) {
  if (v->empty()) return;
  v->erase(v->begin() + end, v->end());
  v->erase(v->begin(), v->begin() + begin);
}

}  // namespace gnomon::storage
