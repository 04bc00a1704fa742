// HugePageAllocator: small arrays come from the ordinary allocator, large ones start on a huge
// page, hold what is written to them, and grow and shrink like any vector's storage.
#include "src/port/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace gnomon::port {
namespace {

TEST(HugePagesTest, LargeBlocksAreAlignedZeroedAndWritable) {
  const size_t bytes = 3 * kHugePageBytes + 12345;
  auto* p = static_cast<unsigned char*>(AllocateHugePageBacked(bytes));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kHugePageBytes, 0u);
  for (size_t i = 0; i < bytes; i += 4096) ASSERT_EQ(p[i], 0) << i;
  p[0] = 1;
  p[bytes - 1] = 2;
  EXPECT_EQ(p[0] + p[bytes - 1], 3);
  FreeHugePageBacked(p, bytes);
}

TEST(HugePagesTest, VectorsOfEverySizeKeepTheirElements) {
  std::vector<uint64_t, HugePageAllocator<uint64_t>> v;
  // Through the 2 MB threshold (262,144 elements) and past it, with the copies growth makes.
  for (uint64_t i = 0; i < 1'000'000; ++i) v.push_back(i * 7);
  for (uint64_t i = 0; i < v.size(); i += 999) ASSERT_EQ(v[i], i * 7);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % kHugePageBytes, 0u);
  v.resize(10);
  v.shrink_to_fit();
  EXPECT_EQ(v[9], 63u);
  std::vector<uint64_t, HugePageAllocator<uint64_t>> big(kHugePageBytes / sizeof(uint64_t) * 2, 5);
  EXPECT_EQ(big.back(), 5u);
}

}  // namespace
}  // namespace gnomon::port
