// StableVector, Arena, HashIndex and PostingList: the building blocks of the registry.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "src/base/hash.h"
#include "src/index/arena.h"
#include "src/index/hash_index.h"
#include "src/index/posting_list.h"
#include "src/index/series_run.h"
#include "src/index/stable_vector.h"

namespace gnomon::index {
namespace {

TEST(StableVectorTest, ElementsKeepTheirAddressesAcrossGrowth) {
  StableVector<uint64_t, 2> v;
  std::vector<const uint64_t*> addrs;
  for (uint64_t i = 0; i < 10000; ++i) {
    v.push_back(i * 7);
    addrs.push_back(&v[i]);
  }
  ASSERT_EQ(v.size(), 10000u);
  for (uint64_t i = 0; i < 10000; ++i) {
    EXPECT_EQ(v[i], i * 7);
    EXPECT_EQ(&v[i], addrs[i]);
  }
  EXPECT_GE(v.MemoryUsage(), 10000 * sizeof(uint64_t));
}

TEST(ArenaTest, CopiesStayValidAndAligned) {
  Arena arena;
  std::vector<std::string_view> views;
  for (int i = 0; i < 5000; ++i) {
    views.push_back(arena.CopyString(std::string(static_cast<size_t>(i % 300) + 1, static_cast<char>('a' + i % 26))));
    uint32_t* run = arena.AllocateU32(static_cast<size_t>(i % 7) + 1);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(run) % alignof(uint32_t), 0u);
    run[0] = static_cast<uint32_t>(i);
  }
  std::string big(1 << 20, 'z');
  EXPECT_EQ(arena.CopyString(big), big);
  for (int i = 0; i < 5000; ++i) {
    EXPECT_EQ(views[i], std::string(static_cast<size_t>(i % 300) + 1, static_cast<char>('a' + i % 26)));
  }
  EXPECT_TRUE(arena.CopyString("").empty());
}

TEST(SeriesRunTest, ValuesOfEveryWidthReadBack) {
  Arena arena;
  std::mt19937 rng(7);
  for (size_t n : {0, 1, 3, 4, 5, 10, 17, 64}) {
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<uint32_t> values(n);
      for (uint32_t& v : values) v = static_cast<uint32_t>(rng()) >> (8 * (rng() % 4));
      const uint32_t keyset = static_cast<uint32_t>(rng());
      const uint8_t* run = SeriesRun::Write(keyset, values, &arena);
      EXPECT_EQ(SeriesRun::Keyset(run), keyset);
      SeriesRun::Reader reader(run, n);
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(SeriesRun::Value(run, n, i), values[i]) << n << " " << i;
        EXPECT_EQ(reader.Next(), values[i]) << n << " " << i;
      }
    }
  }
  // Small ids take a byte each: a fleet's run of ten tags, one of them a hostname among millions,
  // is 4 + 3 + 9 + 3 bytes.
  Arena fleet;
  const std::vector<uint32_t> ten = {3, 1, 7654321, 0, 12, 2, 5, 1, 0, 4};
  const uint8_t* a = SeriesRun::Write(0, ten, &fleet);
  const uint8_t* b = SeriesRun::Write(1, ten, &fleet);
  EXPECT_EQ(b - a, 19);
}

TEST(HashIndexTest, FindsEveryInsertedKeyAndNothingElse) {
  HashIndex index(1);
  std::vector<std::string> keys;
  for (int i = 0; i < 20000; ++i) keys.push_back("key" + std::to_string(i));
  for (uint32_t i = 0; i < keys.size(); ++i) {
    ASSERT_FALSE(index.Find(Hash64(keys[i]), [&](uint32_t id) { return keys[id] == keys[i]; }));
    index.Insert(Hash64(keys[i]), i);
  }
  EXPECT_EQ(index.size(), keys.size());
  for (uint32_t i = 0; i < keys.size(); ++i) {
    auto id = index.Find(Hash64(keys[i]), [&](uint32_t id) { return keys[id] == keys[i]; });
    ASSERT_TRUE(id);
    EXPECT_EQ(*id, i);
  }
  std::string absent = "nope";
  EXPECT_FALSE(index.Find(Hash64(absent), [&](uint32_t id) { return keys[id] == absent; }));
}

TEST(HashIndexTest, SplitIntoShardsKeepsEveryEntry) {
  // Past kSplitAt entries the table splits into shards; entries before and after stay findable,
  // including ones whose fingerprints collide.
  HashIndex index;
  const uint32_t n = static_cast<uint32_t>(HashIndex::kSplitAt) * 3;
  auto hash_of = [](uint32_t i) { return i % 1000 == 0 ? 0x5555555500000000ull + i : Hash64(std::to_string(i)); };
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_FALSE(index.Find(hash_of(i), [&](uint32_t id) { return id == i; }));
    index.Insert(hash_of(i), i);
  }
  EXPECT_EQ(index.size(), n);
  for (uint32_t i = 0; i < n; ++i) {
    auto id = index.Find(hash_of(i), [&](uint32_t id) { return id == i; });
    ASSERT_TRUE(id) << i;
    EXPECT_EQ(*id, i);
  }
  EXPECT_FALSE(index.Find(Hash64("absent"), [](uint32_t) { return true; }));
  EXPECT_LT(index.MemoryUsage(), n * 8 * 3);
}

// InsertUnlessPresent inserts what is new and names what is there, colliding fingerprints
// included; after Reserve, loading that many entries grows nothing.
TEST(HashIndexTest, InsertUnlessPresentAfterReserveRejectsRepeatsWithoutGrowing) {
  for (uint32_t n : {1000u, static_cast<uint32_t>(HashIndex::kSplitAt) * 3}) {
    HashIndex index;
    index.Reserve(n);
    const size_t reserved = index.MemoryUsage();
    // Keys k and k + n are the same key (key = id % n); every 500th shares one fingerprint.
    auto key_of = [&](uint32_t id) { return id % n; };
    auto hash_of = [](uint32_t key) { return key % 500 == 0 ? 0x5555555500000000ull + key : Hash64(std::to_string(key)); };
    for (uint32_t id = 0; id < n; ++id) {
      ASSERT_EQ(index.InsertUnlessPresent(hash_of(id), id, [&](uint32_t other) { return key_of(other) == key_of(id); }),
                HashIndex::kNoId) << id;
    }
    EXPECT_EQ(index.size(), n);
    EXPECT_EQ(index.MemoryUsage(), reserved) << n;
    for (uint32_t id = n; id < n + 2000; ++id) {
      ASSERT_EQ(index.InsertUnlessPresent(hash_of(key_of(id)), id, [&](uint32_t other) { return key_of(other) == key_of(id); }),
                key_of(id)) << id;
    }
    EXPECT_EQ(index.size(), n);
    for (uint32_t id = 0; id < n; ++id) {
      auto found = index.Find(hash_of(id), [&](uint32_t other) { return other == id; });
      ASSERT_TRUE(found) << id;
    }
  }
}

TEST(HashIndexTest, FingerprintCollisionsAreResolvedByThePredicate) {
  HashIndex index(2);
  // Same hash for all: every lookup must walk the cluster and ask the predicate.
  for (uint32_t i = 0; i < 100; ++i) index.Insert(0xdeadbeef00000000ull, i);
  for (uint32_t i = 0; i < 100; ++i) {
    auto id = index.Find(0xdeadbeef00000000ull, [&](uint32_t id) { return id == i; });
    ASSERT_TRUE(id);
    EXPECT_EQ(*id, i);
  }
}

RC_GTEST_PROP(PostingListTest, MatchesASortedVector, (const std::set<uint32_t>& ids)) {
  PostingList list;
  for (uint32_t id : ids) list.Add(id);
  std::vector<uint32_t> expected(ids.begin(), ids.end());
  RC_ASSERT(list.cardinality() == expected.size());
  std::vector<uint32_t> got;
  list.AppendTo(&got);
  RC_ASSERT(got == expected);
  Roaring r = list.ToRoaring();
  RC_ASSERT(r.cardinality() == expected.size());
  for (uint32_t id : expected) RC_ASSERT(r.contains(id) && list.Contains(id));
  PostingList moved = std::move(list);
  got.clear();
  moved.AppendTo(&got);
  RC_ASSERT(got == expected);
}

TEST(PostingListTest, LongDenseListsBecomeCompactBitmaps) {
  PostingList list;
  for (uint32_t i = 0; i < 100000; ++i) list.Add(i);
  EXPECT_EQ(list.cardinality(), 100000u);
  EXPECT_TRUE(list.Contains(99999));
  EXPECT_FALSE(list.Contains(100000));
  // A run of 100 k ids must not cost 4 bytes an id.
  EXPECT_LT(list.MemoryUsage(), 100000u);
}

}  // namespace
}  // namespace gnomon::index
