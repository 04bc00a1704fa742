// The series log format: golden bytes, round trip, torn-tail vs corruption classification.
#include "src/index/series_log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/index/index_test_util.h"

namespace gnomon::index {
namespace {

std::string Hex(std::string_view s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

struct Replayed {
  Status status;
  LogReadResult result;
  std::vector<std::pair<SeriesId, std::vector<std::pair<std::string, std::string>>>> records;
};

Replayed Replay(std::string_view contents) {
  Replayed r;
  r.status = ReadSeriesLog(
      contents, "series.log",
      [&](uint64_t, SeriesId id, std::span<const TagRef> tags) {
        std::vector<std::pair<std::string, std::string>> owned;
        for (const TagRef& t : tags) owned.emplace_back(t.key, t.value);
        r.records.emplace_back(id, std::move(owned));
        return Status::OK();
      },
      &r.result);
  return r;
}

std::string ThreeRecordLog(std::vector<size_t>* record_starts = nullptr) {
  std::string log = EncodeLogHeader(7);
  std::vector<std::vector<std::pair<std::string, std::string>>> sets = {
      {{"host", "a"}}, {{"dc", "x"}, {"host", "b"}}, {}};
  for (size_t i = 0; i < sets.size(); ++i) {
    if (record_starts) record_starts->push_back(log.size());
    AppendLogRecord(static_cast<SeriesId>(7 + i), Refs(sets[i]), &log);
  }
  return log;
}

// Guards the on-disk format (docs/format/series-registry.md). Changing these bytes needs a
// version bump and a reader for the old version.
TEST(SeriesLogTest, GoldenBytes) {
  std::string log = EncodeLogHeader(5);
  AppendLogRecord(5, Refs({{"host", "h1"}, {"region", "eu"}}), &log);
  EXPECT_EQ(Hex(log.substr(0, 16)), "474e4d53524c4f47" "01000000" "05000000");
  // record: crc, length 21, type 1, id 5, 2 tags, then the canonical key bytes
  EXPECT_EQ(Hex(log.substr(kLogHeaderSize + 4)),
            "15000000" "01" "05" "02" "04686f7374" "026831" "06726567696f6e" "026575");
  // CRCs cross-checked with an independent bitwise CRC32C (poly 0x82f63b78) + LevelDB mask.
  EXPECT_EQ(Hex(log.substr(16, 4)), "4bbc1ed1");                      // header crc
  EXPECT_EQ(Hex(log.substr(kLogHeaderSize, 4)), "55480b4c");          // record crc
}

TEST(SeriesLogTest, RoundTrip) {
  std::string log = ThreeRecordLog();
  Replayed r = Replay(log);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.result.base_id, 7u);
  EXPECT_EQ(r.result.records, 3u);
  EXPECT_EQ(r.result.valid_bytes, log.size());
  EXPECT_FALSE(r.result.torn_tail);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[1].first, 8u);
  EXPECT_EQ(r.records[1].second[1], (std::pair<std::string, std::string>("host", "b")));
  EXPECT_TRUE(r.records[2].second.empty());
}

TEST(SeriesLogTest, TornTailAtEveryOffsetOfTheLastRecordKeepsTheCompleteOnes) {
  std::vector<size_t> starts;
  std::string log = ThreeRecordLog(&starts);
  for (size_t cut = starts[2]; cut < log.size(); ++cut) {
    Replayed r = Replay(log.substr(0, cut));
    ASSERT_TRUE(r.status.ok()) << "cut " << cut << ": " << r.status.ToString();
    EXPECT_EQ(r.result.records, 2u) << cut;
    EXPECT_EQ(r.result.valid_bytes, starts[2]) << cut;
    EXPECT_EQ(r.result.torn_tail, cut != starts[2]) << cut;
  }
}

TEST(SeriesLogTest, ZeroFilledTailIsTorn) {
  std::vector<size_t> starts;
  std::string log = ThreeRecordLog(&starts);
  std::string zeroed = log.substr(0, starts[1]) + std::string(200, '\0');
  Replayed r = Replay(zeroed);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.result.torn_tail);
  EXPECT_EQ(r.result.records, 1u);
}

TEST(SeriesLogTest, DamageBeforeTheLastRecordIsCorruptionWithOffset) {
  std::vector<size_t> starts;
  std::string log = ThreeRecordLog(&starts);
  for (size_t at = starts[0]; at < starts[2]; ++at) {
    std::string bad = log;
    bad[at] ^= 0x40;
    Replayed r = Replay(bad);
    if (r.status.ok()) {
      // A flipped length byte may make the record reach past the end: then it reads as torn,
      // never as a silently different record.
      EXPECT_TRUE(r.result.torn_tail) << at;
      EXPECT_LT(r.result.records, 3u) << at;
      continue;
    }
    EXPECT_TRUE(r.status.IsCorruption()) << at;
    size_t record_start = at < starts[1] ? starts[0] : starts[1];
    EXPECT_NE(r.status.message().find("series.log"), std::string::npos);
    EXPECT_NE(r.status.message().find("offset " + std::to_string(record_start)), std::string::npos)
        << r.status.message();
  }
}

TEST(SeriesLogTest, HeaderDamageIsCorruption) {
  std::string log = ThreeRecordLog();
  for (size_t at = 0; at < kLogHeaderSize; ++at) {
    std::string bad = log;
    bad[at] ^= 1;
    EXPECT_TRUE(Replay(bad).status.IsCorruption()) << at;
  }
  EXPECT_TRUE(Replay(log.substr(0, 10)).status.IsCorruption());
  EXPECT_TRUE(Replay("").status.IsCorruption());
}

TEST(SeriesLogTest, ValidCrcButBadContentIsCorruption) {
  std::string log = EncodeLogHeader(0);
  AppendLogRecord(1, Refs({{"a", "1"}}), &log);  // id 1 where 0 is expected
  EXPECT_TRUE(Replay(log).status.IsCorruption());
  log = EncodeLogHeader(0);
  AppendLogRecord(0, Refs({{"b", "1"}, {"a", "1"}}), &log);  // not canonical
  EXPECT_TRUE(Replay(log).status.IsCorruption());
}

}  // namespace
}  // namespace gnomon::index
