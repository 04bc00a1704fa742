// RawKeyCache: ids come back for the keys inserted and for no others, a second insert keeps the
// first id, concurrent writers and readers agree, and a series costs about its 16-byte slot.
#include "src/index/raw_key_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace gnomon::index {
namespace {

std::string Key(int i) { return "cpu,hostname=host_" + std::to_string(i) + ",region=eu-west-1"; }

TEST(RawKeyCacheTest, FindsWhatWasInsertedAndNothingElse) {
  RawKeyCache cache;
  EXPECT_FALSE(cache.Find(RawKeyCache::Hash(Key(0))).has_value());
  constexpr int kKeys = 100000;
  for (int i = 0; i < kKeys; ++i) cache.Insert(RawKeyCache::Hash(Key(i)), static_cast<SeriesId>(i));
  EXPECT_EQ(cache.size(), static_cast<size_t>(kKeys));
  for (int i = 0; i < kKeys; ++i) {
    auto id = cache.Find(RawKeyCache::Hash(Key(i)));
    ASSERT_TRUE(id.has_value()) << i;
    EXPECT_EQ(*id, static_cast<SeriesId>(i));
  }
  for (int i = kKeys; i < 2 * kKeys; ++i) EXPECT_FALSE(cache.Find(RawKeyCache::Hash(Key(i))).has_value());
  // The same series spelt another way is another raw key.
  EXPECT_FALSE(cache.Find(RawKeyCache::Hash("cpu,region=eu-west-1,hostname=host_0")).has_value());
  // Slots and the table's spare room, nothing per key beyond them.
  EXPECT_LT(cache.MemoryUsage(), static_cast<size_t>(kKeys) * 48);
}

TEST(RawKeyCacheTest, ASecondInsertKeepsTheFirstId) {
  RawKeyCache cache;
  RawKeyHash h = RawKeyCache::Hash("m,a=1");
  cache.Insert(h, 7);
  cache.Insert(h, 9);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.Find(h), std::optional<SeriesId>(7));
}

TEST(RawKeyCacheTest, HashesDependOnEveryByte) {
  EXPECT_EQ(RawKeyCache::Hash("m,a=1"), RawKeyCache::Hash(std::string("m,a=1")));
  EXPECT_FALSE(RawKeyCache::Hash("m,a=1") == RawKeyCache::Hash("m,a=2"));
  EXPECT_FALSE(RawKeyCache::Hash("m,a=1") == RawKeyCache::Hash("m,a=1 "));
}

TEST(RawKeyCacheTest, ConcurrentWritersAndReadersAgree) {
  RawKeyCache cache;
  constexpr int kPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const int k = t * kPerThread + i;
        cache.Insert(RawKeyCache::Hash(Key(k)), static_cast<SeriesId>(k));
        auto id = cache.Find(RawKeyCache::Hash(Key(k)));
        ASSERT_TRUE(id.has_value());
        ASSERT_EQ(*id, static_cast<SeriesId>(k));
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(cache.size(), 4u * kPerThread);
}

}  // namespace
}  // namespace gnomon::index
