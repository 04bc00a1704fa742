// Snapshot framing and body codec.
#include "src/index/series_snapshot.h"

#include <gtest/gtest.h>

#include "src/base/coding.h"
#include "src/index/index_test_util.h"
#include "src/index/series_log.h"
#include "src/index/series_index.h"

namespace gnomon::index {
namespace {

SeriesIndex& Fill(SeriesIndex& index, int n) {
  for (int i = 0; i < n; ++i) {
    std::string host = "host_" + std::to_string(i);
    std::string rack = std::to_string(i % 4);
    std::vector<TagRef> tags = {{"host", host}, {"rack", rack}};
    if (i % 5 == 0) tags.erase(tags.begin() + 1);  // a second keyset
    index.Add(HashSeriesKey(tags), tags);
  }
  return index;
}

TEST(SeriesSnapshotTest, BodyRoundTripPreservesIdsAndIndex) {
  SeriesIndex index;
  Fill(index, 1000);
  std::string body;
  index.EncodeSnapshotBody(index.series_count(), index.ValueCounts(), &body);
  for (auto compression : {SnapshotCompression::kNone, SnapshotCompression::kZstd}) {
    std::string file = FrameSnapshot(body, compression);
    if (compression == SnapshotCompression::kZstd) {
      EXPECT_LT(file.size(), body.size());
    }
    auto raw = UnframeSnapshot(file, "series.snap");
    ASSERT_TRUE(raw.ok()) << raw.status().ToString();
    SeriesIndex loaded;
    ASSERT_TRUE(loaded.DecodeSnapshotBody(*raw).ok());
    ASSERT_EQ(loaded.series_count(), 1000u);
    for (SeriesId id = 0; id < 1000; ++id) {
      EXPECT_EQ(loaded.Tags(id).ToVector(), index.Tags(id).ToVector());
    }
    EXPECT_EQ(loaded.Postings("rack", "3")->cardinality(), index.Postings("rack", "3")->cardinality());
  }
}

TEST(SeriesSnapshotTest, PartialCutEncodesOnlyThePrefix) {
  SeriesIndex index;
  Fill(index, 10);
  std::vector<uint32_t> counts = index.ValueCounts();
  Fill(index, 20);  // grows after the cut (repeats 0..9, adds 10..19)
  std::string body;
  index.EncodeSnapshotBody(10, counts, &body);
  SeriesIndex loaded;
  ASSERT_TRUE(loaded.DecodeSnapshotBody(body).ok());
  EXPECT_EQ(loaded.series_count(), 10u);
  EXPECT_EQ(loaded.SortedValues("host").size(), 10u);
}

// A body naming one series twice (hand-made: key host, values a and b, series a, b, a).
TEST(SeriesSnapshotTest, ARepeatedSeriesIsCorruption) {
  auto body_of = [](std::initializer_list<uint32_t> series_values) {
    std::string body;
    PutVarint32(&body, 1);  // keys
    PutLengthPrefixed(&body, "host");
    PutVarint32(&body, 2);  // its values
    PutLengthPrefixed(&body, "a");
    PutLengthPrefixed(&body, "b");
    PutVarint32(&body, 1);  // keysets: {host}
    PutVarint32(&body, 1);
    PutVarint32(&body, 0);
    PutVarint32(&body, static_cast<uint32_t>(series_values.size()));
    for (uint32_t v : series_values) {
      PutVarint32(&body, 0);  // keyset
      PutVarint32(&body, v);
    }
    return body;
  };
  SeriesIndex good;
  ASSERT_TRUE(good.DecodeSnapshotBody(body_of({0, 1})).ok());
  EXPECT_EQ(good.series_count(), 2u);
  SeriesIndex bad;
  const Status s = bad.DecodeSnapshotBody(body_of({0, 1, 0}));
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("series 2 repeated"), std::string::npos) << s.ToString();
}

TEST(SeriesSnapshotTest, EveryTruncationAndBitFlipOfTheBodyIsCaught) {
  SeriesIndex index;
  Fill(index, 30);
  std::string body;
  index.EncodeSnapshotBody(index.series_count(), index.ValueCounts(), &body);
  // Without the CRC (which catches all of these first) the body decoder must still never crash.
  for (size_t cut = 0; cut < body.size(); ++cut) {
    SeriesIndex loaded;
    EXPECT_TRUE(loaded.DecodeSnapshotBody(body.substr(0, cut)).IsCorruption()) << cut;
  }
  for (size_t at = 0; at < body.size(); ++at) {
    for (char bit : {char{1}, char{0x40}, char{-128}}) {
      std::string bad = body;
      bad[at] ^= bit;
      SeriesIndex loaded;
      Status s = loaded.DecodeSnapshotBody(bad);  // may be ok (e.g. a changed letter); no crash
      if (!s.ok()) {
        EXPECT_TRUE(s.IsCorruption());
      }
      EXPECT_NE(s.message().find("offset"), s.ok() ? 0 : std::string::npos);
    }
  }
  std::string file = FrameSnapshot(body, SnapshotCompression::kNone);
  for (size_t cut = 0; cut < file.size(); ++cut) {
    EXPECT_TRUE(UnframeSnapshot(file.substr(0, cut), "s").status().IsCorruption()) << cut;
  }
}

// testdata/fuzz/{snapshot,log} were written by an independent Python encoder of
// docs/format/series-registry.md (first byte: the fuzz target's selector). Both must decode to
// series 0 {host=h0,rack=1}, 1 {host=h1,rack=1}, 2 {}.
TEST(SeriesSnapshotTest, GoldenFixturesFromTheFormatDocDecode) {
  const std::vector<std::vector<TagRef>> expected = {
      {{"host", "h0"}, {"rack", "1"}}, {{"host", "h1"}, {"rack", "1"}}, {}};
  std::string dir = std::string(GNOMON_SOURCE_DIR) + "/src/index/testdata/fuzz/";
  auto snap = port::ReadFileToString(port::Env::Default(), dir + "snapshot");
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  auto body = UnframeSnapshot(std::string_view(*snap).substr(1), "snapshot");
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  SeriesIndex index;
  ASSERT_TRUE(index.DecodeSnapshotBody(*body).ok());
  ASSERT_EQ(index.series_count(), 3u);
  for (SeriesId id = 0; id < 3; ++id) EXPECT_EQ(index.Tags(id).ToVector(), expected[id]);
  // And our encoder reproduces the fixture byte for byte.
  std::string again;
  index.EncodeSnapshotBody(3, index.ValueCounts(), &again);
  EXPECT_EQ(FrameSnapshot(again, SnapshotCompression::kNone), std::string_view(*snap).substr(1));

  auto log = port::ReadFileToString(port::Env::Default(), dir + "log");
  ASSERT_TRUE(log.ok());
  std::string ours = EncodeLogHeader(0);
  for (SeriesId id = 0; id < 3; ++id) AppendLogRecord(id, expected[id], &ours);
  EXPECT_EQ(ours, std::string_view(*log).substr(1));
}

}  // namespace
}  // namespace gnomon::index
