// ChunkedArray: entries keep their values and addresses as it grows; spare room is one chunk.
#include "src/base/chunked_array.h"

#include <gtest/gtest.h>

#include <string>

namespace gnomon {
namespace {

TEST(ChunkedArrayTest, GrowsWithoutMovingEntries) {
  ChunkedArray<uint64_t, 8> a;
  EXPECT_EQ(a.size(), 0u);
  a.GrowTo(3, 7);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(a[2], 7u);
  a[1] = 42;
  const uint64_t* where = &a[1];
  a.GrowTo(100, 9);
  EXPECT_EQ(a.size(), 100u);
  EXPECT_EQ(&a[1], where);  // no copy on growth
  EXPECT_EQ(a[1], 42u);
  EXPECT_EQ(a[99], 9u);
  a.GrowTo(10);  // never shrinks
  EXPECT_EQ(a.size(), 100u);
  // 13 chunks of 8 entries: at most one chunk of spare room.
  EXPECT_LE(a.MemoryUsage(), 13 * 8 * sizeof(uint64_t) + 16 * sizeof(void*));
}

TEST(ChunkedArrayTest, HoldsNonTrivialEntries) {
  ChunkedArray<std::string, 4> a;
  a.GrowTo(10);
  a[9] = std::string(100, 'x');
  a.GrowTo(20);
  EXPECT_EQ(a[9], std::string(100, 'x'));
  EXPECT_TRUE(a[19].empty());
}

}  // namespace
}  // namespace gnomon
