// Memory for large tables probed at random (hash tables of millions of series), backed by
// transparent huge pages where the kernel grants them: with 4 KB pages each probe of a table of
// hundreds of MB costs a page walk on top of its cache miss, and a prefetch cannot hide the walk.
// Small allocations go to the ordinary allocator.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace gnomon::port {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` (rounded up to whole huge pages) of zeroed memory aligned to a huge page and advised
// MADV_HUGEPAGE. Throws std::bad_alloc when the kernel refuses the mapping.
void* AllocateHugePageBacked(size_t bytes);
// Frees what AllocateHugePageBacked(bytes) returned.
void FreeHugePageBacked(void* p, size_t bytes) noexcept;

// A std::allocator that takes arrays of a huge page or more from AllocateHugePageBacked.
template <typename T>
class HugePageAllocator {
 public:
  using value_type = T;
  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT: rebinding, as std::allocator

  T* allocate(size_t n) {
    if (n * sizeof(T) < kHugePageBytes) return std::allocator<T>().allocate(n);
    return static_cast<T*>(AllocateHugePageBacked(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < kHugePageBytes) return std::allocator<T>().deallocate(p, n);
    FreeHugePageBacked(p, n * sizeof(T));
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

}  // namespace gnomon::port
