#include "src/port/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace gnomon::port {
namespace {

size_t RoundUp(size_t bytes) { return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes; }

}  // namespace

void* AllocateHugePageBacked(size_t bytes) {
  const size_t size = RoundUp(bytes);
  // Map one huge page more than needed and cut the ends so the block starts on a huge page:
  // the kernel backs only aligned 2 MB ranges with huge pages.
  const size_t mapped = size + kHugePageBytes;
  void* m = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(m);
  const uintptr_t aligned = (start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > start) ::munmap(m, aligned - start);
  const uintptr_t tail = aligned + size;
  if (start + mapped > tail) ::munmap(reinterpret_cast<void*>(tail), start + mapped - tail);
  void* p = reinterpret_cast<void*>(aligned);
  ::madvise(p, size, MADV_HUGEPAGE);  // advice only: without THP the pages stay 4 KB
  return p;
}

void FreeHugePageBacked(void* p, size_t bytes) noexcept { ::munmap(p, RoundUp(bytes)); }

}  // namespace gnomon::port
