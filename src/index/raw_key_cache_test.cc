// RawKeyCache: ids come back for the keys inserted and for no others, a second insert keeps the
// first id, concurrent writers and readers agree, and a series costs about its 16-byte slot.
#include "src/index/raw_key_cache.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <thread>
#include <utility>
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

TEST(RawKeyCacheTest, InsertManyAgreesWithInsert) {
  RawKeyCache one, many;
  std::vector<std::pair<RawKeyHash, SeriesId>> entries;
  constexpr int kKeys = 50000;
  for (int i = 0; i < kKeys; ++i) entries.emplace_back(RawKeyCache::Hash(Key(i)), static_cast<SeriesId>(i));
  entries.emplace_back(RawKeyCache::Hash(Key(3)), 99);  // a second insert keeps the first id
  for (const auto& [h, id] : entries) one.Insert(h, id);
  many.InsertMany(std::span(entries).first(kKeys / 2));
  many.InsertMany(std::span(entries).subspan(kKeys / 2));
  EXPECT_EQ(many.size(), one.size());
  EXPECT_EQ(many.size(), static_cast<size_t>(kKeys));
  for (int i = 0; i < kKeys; ++i) EXPECT_EQ(many.Find(RawKeyCache::Hash(Key(i))), one.Find(RawKeyCache::Hash(Key(i)))) << i;
  EXPECT_EQ(many.Find(RawKeyCache::Hash(Key(3))), std::optional<SeriesId>(3));
  many.InsertMany({});
  EXPECT_EQ(many.size(), static_cast<size_t>(kKeys));
}

// Prefetch is only a hint: on an empty cache and on any hash it changes nothing. Large() turns
// on once the slots pass 16 MB (a million series), not before.
TEST(RawKeyCacheTest, PrefetchChangesNothingAndLargeFollowsTheSlots) {
  RawKeyCache cache;
  cache.Prefetch(RawKeyCache::Hash(Key(0)));
  EXPECT_FALSE(cache.Large());
  std::vector<std::pair<RawKeyHash, SeriesId>> entries;
  constexpr int kKeys = 800000;
  for (int i = 0; i < kKeys; ++i) entries.emplace_back(RawKeyCache::Hash(Key(i)), static_cast<SeriesId>(i));
  cache.InsertMany(std::span(entries).first(1000));
  EXPECT_FALSE(cache.Large());
  cache.InsertMany(std::span(entries).subspan(1000));
  EXPECT_TRUE(cache.Large());  // 800,000 series at load <= 0.75: 2 M slots of 16 bytes
  for (int i = 0; i < kKeys; i += 997) {
    cache.Prefetch(RawKeyCache::Hash(Key(i)));
    EXPECT_EQ(cache.Find(RawKeyCache::Hash(Key(i))), std::optional<SeriesId>(i));
  }
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
