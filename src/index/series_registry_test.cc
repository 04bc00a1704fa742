// SeriesRegistry: lookups, persistence across reopen, checkpoints, concurrency.
#include "src/index/series_registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "src/index/index_test_util.h"
#include "src/index/series_log.h"

namespace gnomon::index {
namespace {

using Tags = std::vector<std::pair<std::string, std::string>>;

Tags HostTags(int i) {
  std::string dc = "dc", host = "h";  // appended, not "lit" + to_string (GCC 12 -Wrestrict bug)
  dc += std::to_string(i % 3);
  host += std::to_string(i);
  return {{"dc", dc}, {"host", host}, {"os", i % 2 ? "linux" : "bsd"}};
}

Tags Materialise(const SeriesTags& tags) {
  Tags out;
  for (TagRef t : tags) out.emplace_back(t.key, t.value);
  return out;
}

class SeriesRegistryTest : public IndexTestDir {
 protected:
  std::unique_ptr<SeriesRegistry> OpenOrDie(RegistryOptions options = {}) {
    auto r = SeriesRegistry::Open(env_, dir_, options);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? std::move(r).value() : nullptr;
  }
  SeriesId Create(SeriesRegistry* reg, const Tags& tags, bool* created = nullptr) {
    auto refs = Refs(tags);
    auto id = reg->GetOrCreate(refs, created);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : UINT32_MAX;
  }
  void ExpectSeries(const SeriesRegistry& reg, int n) {
    ASSERT_EQ(reg.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(Materialise(reg.Tags(i)), HostTags(i)) << i;
      EXPECT_EQ(reg.Find(Refs(HostTags(i))), std::optional<SeriesId>(i));
    }
  }
};

TEST_F(SeriesRegistryTest, CreateLookupIdempotent) {
  auto reg = OpenOrDie();
  bool created = false;
  EXPECT_EQ(Create(reg.get(), HostTags(0), &created), 0u);
  EXPECT_TRUE(created);
  EXPECT_EQ(Create(reg.get(), HostTags(1), &created), 1u);
  EXPECT_TRUE(created);
  EXPECT_EQ(Create(reg.get(), HostTags(0), &created), 0u);
  EXPECT_FALSE(created);
  EXPECT_EQ(reg->size(), 2u);
  EXPECT_EQ(reg->Find(Refs(HostTags(1))), std::optional<SeriesId>(1));
  EXPECT_EQ(reg->Find(Refs(HostTags(2))), std::nullopt);
  EXPECT_EQ(reg->TagValue(1, "host"), "h1");
  EXPECT_EQ(reg->TagValue(1, "dc"), "dc1");
  EXPECT_EQ(reg->TagValue(1, "os"), "linux");
  EXPECT_EQ(reg->TagValue(1, "rack"), "");
  EXPECT_EQ(reg->TagValue(1, "a"), "");
  EXPECT_EQ(reg->TagValue(1, "zz"), "");
  EXPECT_EQ(reg->TagKeys(), (std::vector<std::string>{"dc", "host", "os"}));
  EXPECT_EQ(reg->TagValues("os"), (std::vector<std::string>{"bsd", "linux"}));
  EXPECT_TRUE(reg->TagValues("nope").empty());
  EXPECT_EQ(reg->SeriesWithTag("os", "linux").cardinality(), 1u);
  EXPECT_TRUE(reg->SeriesWithTag("os", "linux").contains(1));
  EXPECT_EQ(reg->SeriesWithTag("os", "hurd").cardinality(), 0u);
  std::vector<SeriesId> ids;
  reg->AppendSeriesWithTag("os", "bsd", &ids);
  EXPECT_EQ(ids, std::vector<SeriesId>{0});
  EXPECT_EQ(reg->CountSeriesWithTag("dc", "dc0"), 1u);
  // The hash overloads agree with the plain ones.
  Tags host1 = HostTags(1);
  auto refs = Refs(host1);
  EXPECT_EQ(reg->Find(HashSeriesKey(refs), refs), std::optional<SeriesId>(1));
}

// TagColumns agrees with TagValue for every series and key, across keysets (series with other
// and fewer keys), keys some series lack and keys no series has.
TEST_F(SeriesRegistryTest, TagColumnsAgreeWithTagValue) {
  auto reg = OpenOrDie();
  for (int i = 0; i < 6; ++i) Create(reg.get(), HostTags(i));
  Create(reg.get(), {{"host", "lone"}});
  Create(reg.get(), {{"dc", "dc9"}, {"host", "h9"}, {"os", "linux"}, {"rack", "r1"}});
  Create(reg.get(), {});
  const std::vector<std::string> keys = {"os", "nope", "host", "rack", "dc", "host"};
  const std::vector<SeriesId> ids = {8, 0, 6, 7, 3, 3, 1};
  std::vector<std::string_view> out(ids.size() * keys.size(), "unset");
  reg->TagColumns(ids, keys, out.data());
  for (size_t i = 0; i < ids.size(); ++i) {
    for (size_t k = 0; k < keys.size(); ++k) {
      EXPECT_EQ(out[i * keys.size() + k], reg->TagValue(ids[i], keys[k])) << "series " << ids[i] << " key " << keys[k];
    }
  }
  EXPECT_EQ(out[3 * keys.size() + 3], "r1");
  EXPECT_EQ(out[2 * keys.size() + 2], "lone");
}

// With value ids: within a key, two series' ids are equal exactly when their values are, and
// kNoValue marks a missing key, for ids of one to three bytes (more than 65,536 hosts).
TEST_F(SeriesRegistryTest, TagColumnsValueIdsMatchValues) {
  auto reg = OpenOrDie();
  constexpr int kHosts = 70000;
  for (int i = 0; i < kHosts; ++i) {
    Create(reg.get(), {{"dc", "dc" + std::to_string(i % 3)}, {"host", "h" + std::to_string(i)}});
  }
  Create(reg.get(), {{"host", "h5"}, {"os", "linux"}});  // a second series with host h5, no dc
  const std::vector<std::string> keys = {"host", "dc", "os"};
  std::vector<SeriesId> ids;
  for (SeriesId id = 0; id <= kHosts; id += 1 + id / 16) ids.push_back(id);
  ids.push_back(kHosts);
  std::vector<std::string_view> out(ids.size() * keys.size());
  std::vector<uint32_t> value_ids(ids.size() * keys.size());
  reg->TagColumns(ids, keys, out.data(), value_ids.data());
  for (size_t k = 0; k < keys.size(); ++k) {
    std::map<std::string_view, uint32_t> id_of;
    std::map<uint32_t, std::string_view> value_of;
    for (size_t i = 0; i < ids.size(); ++i) {
      const std::string_view v = out[i * keys.size() + k];
      const uint32_t id = value_ids[i * keys.size() + k];
      EXPECT_EQ(v, reg->TagValue(ids[i], keys[k]));
      if (v.empty()) {
        EXPECT_EQ(id, SeriesIndex::kNoValue) << "series " << ids[i] << " key " << keys[k];
        continue;
      }
      ASSERT_NE(id, SeriesIndex::kNoValue);
      EXPECT_EQ(id_of.emplace(v, id).first->second, id) << v;
      EXPECT_EQ(value_of.emplace(id, v).first->second, v) << id;
    }
  }
  EXPECT_EQ(value_ids[(ids.size() - 1) * keys.size()], value_ids[5 * keys.size()]);  // both h5
}

TEST_F(SeriesRegistryTest, EmptyTagSetIsASeries) {
  auto reg = OpenOrDie();
  bool created;
  EXPECT_EQ(Create(reg.get(), {}, &created), 0u);
  EXPECT_TRUE(created);
  EXPECT_EQ(Create(reg.get(), {}, &created), 0u);
  EXPECT_FALSE(created);
  EXPECT_TRUE(reg->Tags(0).empty());
  reg.reset();
  reg = OpenOrDie();
  EXPECT_EQ(reg->size(), 1u);
  EXPECT_EQ(reg->Find({}), std::optional<SeriesId>(0));
}

TEST_F(SeriesRegistryTest, RejectsNonCanonicalTags) {
  auto reg = OpenOrDie();
  for (const Tags& bad : std::vector<Tags>{{{"b", "1"}, {"a", "1"}},
                                           {{"a", "1"}, {"a", "2"}},
                                           {{"", "1"}},
                                           {{"a", ""}},
                                           {{"a", std::string(kMaxTagValueBytes + 1, 'v')}}}) {
    auto r = reg->GetOrCreate(Refs(bad));
    EXPECT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
    EXPECT_EQ(reg->Find(Refs(bad)), std::nullopt);
  }
  EXPECT_EQ(reg->size(), 0u);
}

TEST_F(SeriesRegistryTest, IdsDenseAndStableAcrossReopen) {
  {
    auto reg = OpenOrDie();
    for (int i = 0; i < 500; ++i) ASSERT_EQ(Create(reg.get(), HostTags(i)), static_cast<SeriesId>(i));
    ASSERT_TRUE(reg->Sync().ok());
  }
  auto reg = OpenOrDie();
  ExpectSeries(*reg, 500);
  bool created;
  EXPECT_EQ(Create(reg.get(), HostTags(500), &created), 500u);
  EXPECT_TRUE(created);
  EXPECT_EQ(reg->SeriesWithTag("dc", "dc1").cardinality(), 167u);
}

TEST_F(SeriesRegistryTest, UnsyncedSeriesAreFlushedOnCleanClose) {
  { auto reg = OpenOrDie(); Create(reg.get(), HostTags(0)); }
  auto reg = OpenOrDie();
  ExpectSeries(*reg, 1);
}

TEST_F(SeriesRegistryTest, CheckpointThenMoreAppendsThenReopen) {
  for (bool compress : {false, true}) {
    ASSERT_TRUE(env_->RemoveDirRecursive(dir_).ok());
    RegistryOptions options{.compress_snapshot = compress};
    {
      auto reg = OpenOrDie(options);
      for (int i = 0; i < 300; ++i) Create(reg.get(), HostTags(i));
      ASSERT_TRUE(reg->Checkpoint().ok());
      EXPECT_TRUE(env_->FileExists(Path(kSeriesSnapshotName)));
      // The new log holds only its header.
      EXPECT_EQ(*env_->GetFileSize(Path(kSeriesLogName)), 20u);
      for (int i = 300; i < 350; ++i) Create(reg.get(), HostTags(i));
      ASSERT_TRUE(reg->Sync().ok());
    }
    {
      auto reg = OpenOrDie(options);
      ExpectSeries(*reg, 350);
      EXPECT_EQ(reg->TagValues("dc"), (std::vector<std::string>{"dc0", "dc1", "dc2"}));
      EXPECT_EQ(reg->SeriesWithTag("os", "linux").cardinality(), 175u);
      ASSERT_TRUE(reg->Checkpoint().ok());
      ASSERT_TRUE(reg->Checkpoint().ok());  // nothing new: no-op
      for (int i = 350; i < 360; ++i) Create(reg.get(), HostTags(i));
    }
    auto reg = OpenOrDie(options);
    ExpectSeries(*reg, 360);
  }
}

// Series created and synced while checkpoints encode their snapshots land in the log that
// replaces the old one: after a reopen every synced series is there, with its id.
TEST_F(SeriesRegistryTest, SyncsDuringACheckpointSurviveInTheNewLog) {
  constexpr int kSeries = 20000;
  {
    auto reg = OpenOrDie();
    std::atomic<int> synced{0};
    std::thread writer([&] {
      for (int i = 0; i < kSeries; ++i) {
        Create(reg.get(), HostTags(i));
        if (i % 50 == 49) {
          ASSERT_TRUE(reg->Sync().ok());
          synced = i + 1;
        }
      }
    });
    int checkpoints = 0;
    while (synced.load() < kSeries) {
      ASSERT_TRUE(reg->Checkpoint().ok());
      ++checkpoints;
    }
    writer.join();
    EXPECT_GT(checkpoints, 1);
  }
  auto reg = OpenOrDie();
  ExpectSeries(*reg, kSeries);
}

TEST_F(SeriesRegistryTest, CrashBetweenSnapshotAndLogResetReplaysConsistently) {
  std::string old_log;
  {
    auto reg = OpenOrDie();
    for (int i = 0; i < 40; ++i) Create(reg.get(), HostTags(i));
    ASSERT_TRUE(reg->Sync().ok());
    old_log = *port::ReadFileToString(env_, Path(kSeriesLogName));
    for (int i = 40; i < 60; ++i) Create(reg.get(), HostTags(i));
    ASSERT_TRUE(reg->Checkpoint().ok());
  }
  // Put back the pre-checkpoint log, as if the crash came after the snapshot's rename but before
  // the log was replaced: its records (all below the snapshot's 60) must be skipped.
  ASSERT_TRUE(port::WriteFileAtomic(env_, Path(kSeriesLogName), old_log).ok());
  {
    auto reg = OpenOrDie();
    ExpectSeries(*reg, 60);
    Create(reg.get(), HostTags(60));  // appended after the stale records: id 60
    ASSERT_TRUE(reg->Sync().ok());
  }
  {
    auto reg = OpenOrDie();
    ExpectSeries(*reg, 61);
    ASSERT_TRUE(reg->Checkpoint().ok());  // the stale log is replaced even with nothing new
  }
  EXPECT_EQ(*env_->GetFileSize(Path(kSeriesLogName)), 20u);
  auto reg = OpenOrDie();
  ExpectSeries(*reg, 61);
}

TEST_F(SeriesRegistryTest, TornTailAtEveryOffsetOfTheLastRecord) {
  uint64_t before_last = 0;
  {
    auto reg = OpenOrDie();
    for (int i = 0; i < 5; ++i) Create(reg.get(), HostTags(i));
    ASSERT_TRUE(reg->Sync().ok());
    before_last = *env_->GetFileSize(Path(kSeriesLogName));
    Create(reg.get(), HostTags(5));
    ASSERT_TRUE(reg->Sync().ok());
  }
  std::string full = *port::ReadFileToString(env_, Path(kSeriesLogName));
  for (uint64_t cut = before_last; cut < full.size(); ++cut) {
    ASSERT_TRUE(port::WriteFileAtomic(env_, Path(kSeriesLogName), full.substr(0, cut)).ok());
    {
      auto reg = OpenOrDie();
      ASSERT_NE(reg, nullptr);
      ExpectSeries(*reg, 5);
      // The tail was cut on disk, so a new series lands right after the complete records.
      EXPECT_EQ(*env_->GetFileSize(Path(kSeriesLogName)), before_last) << cut;
      bool created;
      EXPECT_EQ(Create(reg.get(), HostTags(5), &created), 5u);
      EXPECT_TRUE(created);
      ASSERT_TRUE(reg->Sync().ok());
    }
    auto reg = OpenOrDie();
    ExpectSeries(*reg, 6);
  }
}

TEST_F(SeriesRegistryTest, CorruptionIsReportedWithFileAndOffset) {
  uint64_t second_record = 0;
  {
    auto reg = OpenOrDie();
    Create(reg.get(), HostTags(0));
    ASSERT_TRUE(reg->Sync().ok());
    second_record = *env_->GetFileSize(Path(kSeriesLogName));
    for (int i = 1; i < 4; ++i) Create(reg.get(), HostTags(i));
  }
  std::string log = *port::ReadFileToString(env_, Path(kSeriesLogName));
  log[second_record + 12] ^= 0x01;  // inside the payload of series 1
  ASSERT_TRUE(port::WriteFileAtomic(env_, Path(kSeriesLogName), log).ok());
  auto r = SeriesRegistry::Open(env_, dir_);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_NE(r.status().message().find(Path(kSeriesLogName)), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("offset " + std::to_string(second_record)), std::string::npos)
      << r.status().message();
}

TEST_F(SeriesRegistryTest, SnapshotCorruptionIsReported) {
  {
    auto reg = OpenOrDie();
    for (int i = 0; i < 50; ++i) Create(reg.get(), HostTags(i));
    ASSERT_TRUE(reg->Checkpoint().ok());
  }
  std::string snap = *port::ReadFileToString(env_, Path(kSeriesSnapshotName));
  for (size_t at : {size_t{0}, size_t{9}, size_t{20}, snap.size() / 2, snap.size() - 1}) {
    std::string bad = snap;
    bad[at] ^= 0x10;
    ASSERT_TRUE(port::WriteFileAtomic(env_, Path(kSeriesSnapshotName), bad).ok());
    auto r = SeriesRegistry::Open(env_, dir_);
    ASSERT_FALSE(r.ok()) << at;
    EXPECT_TRUE(r.status().IsCorruption() || r.status().code() == Status::Code::kUnsupported) << at;
    EXPECT_NE(r.status().message().find(kSeriesSnapshotName), std::string::npos) << r.status().message();
  }
  ASSERT_TRUE(port::WriteFileAtomic(env_, Path(kSeriesSnapshotName), snap.substr(0, snap.size() - 3)).ok());
  EXPECT_TRUE(SeriesRegistry::Open(env_, dir_).status().IsCorruption());
}

TEST_F(SeriesRegistryTest, LogThatSkipsIdsIsCorruption) {
  {
    auto reg = OpenOrDie();
    Create(reg.get(), HostTags(0));
  }
  // A log based at 5 with no snapshot: series 0..4 are missing.
  ASSERT_TRUE(port::WriteFileAtomic(env_, Path(kSeriesLogName), EncodeLogHeader(5)).ok());
  auto r = SeriesRegistry::Open(env_, dir_);
  EXPECT_TRUE(r.status().IsCorruption()) << r.status().ToString();
}

TEST_F(SeriesRegistryTest, ConcurrentWritersAndReadersAgree) {
  auto reg = OpenOrDie();
  constexpr int kPerThread = 2000;
  constexpr int kWriters = 3;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  // Writers overlap on purpose (each creates i in [t*1000, t*1000+2000)) so races on the same
  // new series happen.
  std::vector<std::vector<SeriesId>> got(kWriters, std::vector<SeriesId>(kPerThread));
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        Tags owned = HostTags(t * 1000 + i);
        auto id = reg->GetOrCreate(Refs(owned));
        ASSERT_TRUE(id.ok());
        got[t][i] = *id;
        if (i % 100 == 0) {
          ASSERT_TRUE(reg->Sync().ok());
        }
        if (t == 0 && i == kPerThread / 2) {
          ASSERT_TRUE(reg->Checkpoint().ok());
        }
      }
    });
  }
  threads.emplace_back([&] {
    while (!stop.load()) {
      size_t n = reg->size();
      for (size_t id = 0; id < n; id += 37) {
        std::string_view host = reg->TagValue(static_cast<SeriesId>(id), "host");
        ASSERT_FALSE(host.empty());
        ASSERT_EQ(reg->Tags(static_cast<SeriesId>(id)).size(), 3u);
      }
      (void)reg->SeriesWithTag("dc", "dc1");
      (void)reg->TagValues("host");
    }
  });
  for (int t = 0; t < kWriters; ++t) threads[t].join();
  stop = true;
  threads.back().join();
  const int distinct = (kWriters - 1) * 1000 + kPerThread;
  ASSERT_EQ(reg->size(), static_cast<size_t>(distinct));
  for (int t = 0; t < kWriters; ++t) {
    for (int i = 0; i < kPerThread; ++i) {
      EXPECT_EQ(Materialise(reg->Tags(got[t][i])), HostTags(t * 1000 + i));
    }
  }
  ASSERT_TRUE(reg->Sync().ok());
  reg.reset();
  reg = OpenOrDie();
  EXPECT_EQ(reg->size(), static_cast<size_t>(distinct));
  for (int t = 0; t < kWriters; ++t) {
    for (int i = 0; i < kPerThread; i += 7) {
      EXPECT_EQ(reg->Find(Refs(HostTags(t * 1000 + i))), std::optional<SeriesId>(got[t][i]));
    }
  }
}

// GetOrCreateMany over `first .. first + n` of HostTags, each tag set `repeat` times in a row.
Status CreateMany(SeriesRegistry* reg, int first, int n, int repeat, std::vector<SeriesId>* ids,
                  size_t* created) {
  std::vector<Tags> owned;
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < repeat; ++r) owned.push_back(HostTags(first + i));
  }
  std::vector<std::vector<TagRef>> refs;
  std::vector<std::span<const TagRef>> spans;
  std::vector<uint64_t> hashes;
  for (const Tags& t : owned) refs.push_back(Refs(t));
  for (const auto& r : refs) {
    spans.emplace_back(r);
    hashes.push_back(HashSeriesKey(r));
  }
  ids->assign(spans.size(), UINT32_MAX);
  return reg->GetOrCreateMany(spans, hashes, *ids, created);
}

TEST_F(SeriesRegistryTest, GetOrCreateManyAgreesWithOneAtATime) {
  auto reg = OpenOrDie();
  for (int i = 0; i < 10; ++i) Create(reg.get(), HostTags(i));  // 0..9 exist
  // 5..(5 + 2.5 chunks): some exist, the rest span several exclusive holds, each set twice.
  const int n = static_cast<int>(SeriesRegistry::kCreateChunk * 5 / 2);
  std::vector<SeriesId> ids;
  size_t created = 0;
  ASSERT_TRUE(CreateMany(reg.get(), 5, n, 2, &ids, &created).ok());
  EXPECT_EQ(created, static_cast<size_t>(n - 5));
  ASSERT_EQ(reg->size(), static_cast<size_t>(5 + n));
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(ids[2 * i], ids[2 * i + 1]) << i;
    EXPECT_EQ(Materialise(reg->Tags(ids[2 * i])), HostTags(5 + i)) << i;
  }
  for (int i = 0; i < 5; ++i) EXPECT_EQ(ids[2 * i], static_cast<SeriesId>(5 + i));  // existing ids kept
  // New ids are dense, in the order of first appearance.
  for (int i = 5; i < n; ++i) EXPECT_EQ(ids[2 * i], static_cast<SeriesId>(5 + i)) << i;
  // Again: nothing new.
  ASSERT_TRUE(CreateMany(reg.get(), 0, n, 1, &ids, &created).ok());
  EXPECT_EQ(created, 0u);
  ASSERT_TRUE(reg->Sync().ok());
  reg.reset();
  reg = OpenOrDie();
  ExpectSeries(*reg, 5 + n);
}

TEST_F(SeriesRegistryTest, GetOrCreateManyRefusesNonCanonicalTags) {
  auto reg = OpenOrDie();
  Tags good = HostTags(1);
  Tags unsorted = {{"b", "1"}, {"a", "2"}};
  std::vector<TagRef> g = Refs(good), u = Refs(unsorted);
  std::vector<std::span<const TagRef>> spans = {g, u};
  std::vector<uint64_t> hashes = {HashSeriesKey(g), HashSeriesKey(u)};
  std::vector<SeriesId> ids(2);
  Status s = reg->GetOrCreateMany(spans, hashes, ids);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(reg->size(), 0u);  // validation comes before any creation
}

TEST_F(SeriesRegistryTest, ConcurrentGetOrCreateManyGivesEachSeriesOneId) {
  auto reg = OpenOrDie();
  constexpr int kWriters = 3;
  const int n = static_cast<int>(SeriesRegistry::kCreateChunk * 2);
  std::vector<std::vector<SeriesId>> got(kWriters);
  std::vector<size_t> created(kWriters);
  std::vector<std::thread> threads;
  // Overlapping ranges: writer t takes [t * n / 2, t * n / 2 + n).
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] { ASSERT_TRUE(CreateMany(reg.get(), t * n / 2, n, 1, &got[t], &created[t]).ok()); });
  }
  for (auto& th : threads) th.join();
  const int distinct = (kWriters - 1) * n / 2 + n;
  ASSERT_EQ(reg->size(), static_cast<size_t>(distinct));
  EXPECT_EQ(created[0] + created[1] + created[2], static_cast<size_t>(distinct));
  for (int t = 0; t < kWriters; ++t) {
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(Materialise(reg->Tags(got[t][i])), HostTags(t * n / 2 + i));
      EXPECT_EQ(reg->Find(Refs(HostTags(t * n / 2 + i))), std::optional<SeriesId>(got[t][i]));
    }
  }
}

}  // namespace
}  // namespace gnomon::index
