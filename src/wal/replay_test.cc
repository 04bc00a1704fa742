// ReplayWal: torn tails, corruption reports and repairs, options.
#include "src/wal/replay.h"

#include <gtest/gtest.h>

#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/port/mem_env.h"
#include "src/wal/segment_file.h"
#include "src/wal/wal.h"
#include "src/wal/wal_format.h"
#include "src/wal/wal_test_util.h"

namespace gnomon::wal {
namespace {

using testing::MakeRecord;
using testing::ReplayAll;

class ReplayTest : public ::testing::Test {
 protected:
  std::unique_ptr<Wal> OpenWal() {
    WalOptions options;
    options.env = &env_;
    options.dir = dir_;
    auto wal = Wal::Open(options);
    EXPECT_TRUE(wal.ok()) << wal.status().ToString();
    return std::move(*wal);
  }
  std::string SegmentPath(uint64_t n) { return port::JoinPath(dir_, SegmentFileName(n)); }
  void WriteRaw(const std::string& path, std::string_view bytes) {
    auto f = env_.NewWritableFile(path);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->Append(bytes).ok());
    ASSERT_TRUE((*f)->Close().ok());
  }
  void FlipByte(const std::string& path, uint64_t offset) {
    std::string data = *port::ReadFileToString(&env_, path);
    ASSERT_LT(offset, data.size());
    data[offset] ^= 0x20;
    WriteRaw(path, data);
  }
  // Writes records to segments 1..n (one Rotate between each), returning their LSNs.
  std::vector<uint64_t> WriteSegments(const std::vector<std::vector<std::string>>& segments) {
    auto wal = OpenWal();
    std::vector<uint64_t> lsns;
    for (size_t s = 0; s < segments.size(); ++s) {
      if (s > 0) {
        EXPECT_TRUE(wal->Rotate().ok());
      }
      for (const auto& r : segments[s]) lsns.push_back(*wal->Append(r, true));
    }
    EXPECT_TRUE(wal->Close().ok());
    return lsns;
  }

  port::MemEnv env_;
  std::string dir_ = "/wal";
};

TEST_F(ReplayTest, MissingDirectoryIsAnEmptyLog) {
  auto replayed = ReplayAll(&env_, "/nothing/here");
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_EQ(replayed.report.records, 0u);
  EXPECT_FALSE(replayed.report.damaged);
}

// Cuts the last record at every byte (every byte near fragment headers and block boundaries, and
// a stride between, for records spanning blocks): replay must give exactly the earlier records,
// cut the file where they end, and let a new Wal append after them.
TEST_F(ReplayTest, TornTailAtEveryOffsetOfTheLastRecord) {
  for (size_t last_size : {1ul, 150ul, 3 * kBlockSize + 100}) {
    SCOPED_TRACE("last record size " + std::to_string(last_size));
    ASSERT_TRUE(env_.RemoveDirRecursive(dir_).ok());
    std::vector<std::string> earlier;
    for (int i = 0; i < 5; ++i) earlier.push_back(MakeRecord(i, 20 + 1000 * i));
    std::string last = MakeRecord(99, last_size);
    std::vector<std::string> all = earlier;
    all.push_back(last);
    auto lsns = WriteSegments({all});
    const uint64_t start = LsnOffset(lsns[4]);
    const uint64_t end = LsnOffset(lsns[5]);
    const std::string full = *port::ReadFileToString(&env_, SegmentPath(1));
    ASSERT_EQ(full.size(), end);

    for (uint64_t cut = start; cut < end; ++cut) {
      uint64_t in_block = cut % kBlockSize;
      bool interesting =
          cut - start < 64 || end - cut < 64 || in_block < 16 || in_block > kBlockSize - 16;
      if (!interesting && cut % 97 != 0) continue;
      ASSERT_TRUE(env_.RemoveDirRecursive(dir_).ok());
      ASSERT_TRUE(env_.CreateDirs(dir_).ok());
      WriteRaw(SegmentPath(1), std::string_view(full).substr(0, cut));

      auto replayed = ReplayAll(&env_, dir_);
      ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
      ASSERT_EQ(replayed.records, earlier) << "cut at " << cut;
      EXPECT_EQ(replayed.report.damaged, cut > start) << "cut at " << cut;
      if (cut > start) {
        EXPECT_TRUE(replayed.report.truncated);
        EXPECT_EQ(replayed.report.truncated_file, SegmentPath(1));
        EXPECT_EQ(replayed.report.truncated_offset, start);
        EXPECT_EQ(replayed.report.dropped_bytes, cut - start);
        EXPECT_FALSE(replayed.report.valid_data_after_damage) << replayed.report.detail;
        EXPECT_NE(replayed.report.detail.find("torn"), std::string::npos) << replayed.report.detail;
      }
      EXPECT_EQ(*env_.GetFileSize(SegmentPath(1)), start);

      // The repaired log takes new records after the old ones.
      {
        auto wal = OpenWal();
        ASSERT_TRUE(wal->Append("next", true).ok());
      }
      auto again = ReplayAll(&env_, dir_);
      ASSERT_EQ(again.records.size(), earlier.size() + 1);
      EXPECT_EQ(again.records.back(), "next");
      EXPECT_FALSE(again.report.damaged);
    }
  }
}

TEST_F(ReplayTest, TornTailFollowedByRecordFreeSegmentsIsStillATail) {
  WriteSegments({{"a", "b"}});
  std::string full = *port::ReadFileToString(&env_, SegmentPath(1));
  WriteRaw(SegmentPath(1), full.substr(0, full.size() - 1));
  { auto wal = OpenWal(); }  // a restart that crashed before writing anything
  auto replayed = ReplayAll(&env_, dir_);
  ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
  EXPECT_EQ(replayed.records, std::vector<std::string>{"a"});
  EXPECT_TRUE(replayed.report.truncated);
  EXPECT_EQ(replayed.report.removed_files, std::vector<std::string>{SegmentPath(2)});
  EXPECT_FALSE(env_.FileExists(SegmentPath(2)));
}

TEST_F(ReplayTest, CorruptionInAnOlderSegmentFailsWithFileAndOffset) {
  auto lsns = WriteSegments({{"s1-a", "s1-b", "s1-c"}, {"s2-a"}, {"s3-a"}});
  uint64_t b_start = LsnOffset(lsns[0]);
  FlipByte(SegmentPath(1), b_start + kFragmentHeaderSize + 1);
  std::string before = *port::ReadFileToString(&env_, SegmentPath(1));

  auto replayed = ReplayAll(&env_, dir_);
  EXPECT_TRUE(replayed.status.IsCorruption());
  const std::string& message = replayed.status.message();
  EXPECT_NE(message.find("00000001.wal"), std::string::npos) << message;
  EXPECT_NE(message.find("offset " + std::to_string(b_start)), std::string::npos) << message;
  EXPECT_NE(message.find("checksum mismatch"), std::string::npos) << message;
  EXPECT_EQ(replayed.records, std::vector<std::string>{"s1-a"});  // passed before the damage
  // Nothing was changed.
  EXPECT_EQ(*port::ReadFileToString(&env_, SegmentPath(1)), before);
  EXPECT_TRUE(env_.FileExists(SegmentPath(3)));
}

TEST_F(ReplayTest, CorruptionInAnOlderSegmentCanBeCut) {
  auto lsns = WriteSegments({{"s1-a", "s1-b"}, {"s2-a"}, {"s3-a"}});
  FlipByte(SegmentPath(1), LsnOffset(lsns[0]) + 2);  // the CRC of "s1-b"
  ReplayOptions options;
  options.on_corruption = CorruptionPolicy::kTruncate;
  auto replayed = ReplayAll(&env_, dir_, options);
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_EQ(replayed.records, std::vector<std::string>{"s1-a"});
  const ReplayReport& report = replayed.report;
  EXPECT_TRUE(report.corruption.IsCorruption());
  EXPECT_TRUE(report.truncated);
  EXPECT_TRUE(report.valid_data_after_damage);
  EXPECT_EQ(report.truncated_file, SegmentPath(1));
  EXPECT_EQ(report.truncated_offset, LsnOffset(lsns[0]));
  EXPECT_EQ(report.removed_files, (std::vector<std::string>{SegmentPath(2), SegmentPath(3)}));
  EXPECT_NE(report.detail.find("middle of the log"), std::string::npos) << report.detail;

  auto again = ReplayAll(&env_, dir_);
  EXPECT_EQ(again.records, std::vector<std::string>{"s1-a"});
  EXPECT_FALSE(again.report.damaged);
  {
    auto wal = OpenWal();
    EXPECT_EQ(wal->current_segment(), 2u);
    ASSERT_TRUE(wal->Append("new", true).ok());
  }
  EXPECT_EQ(ReplayAll(&env_, dir_).records, (std::vector<std::string>{"s1-a", "new"}));
}

TEST_F(ReplayTest, CorruptionInTheLastSegmentIsCutAndFlagged) {
  auto lsns = WriteSegments({{"a", std::string(100, 'b'), "c"}});
  FlipByte(SegmentPath(1), LsnOffset(lsns[0]) + kFragmentHeaderSize + 50);
  auto replayed = ReplayAll(&env_, dir_);
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_EQ(replayed.records, std::vector<std::string>{"a"});
  EXPECT_TRUE(replayed.report.truncated);
  EXPECT_TRUE(replayed.report.corruption.ok());
  // "c" follows intact: this was bit rot, not a torn write, and the report says so.
  EXPECT_TRUE(replayed.report.valid_data_after_damage);
  EXPECT_EQ(replayed.report.damage_offset, LsnOffset(lsns[0]));
  EXPECT_NE(replayed.report.detail.find("corruption at the end"), std::string::npos)
      << replayed.report.detail;
}

TEST_F(ReplayTest, ZeroFilledTailIsCut) {
  auto lsns = WriteSegments({{"a", "b"}});
  auto f = env_.NewAppendableFile(SegmentPath(1));
  ASSERT_TRUE((*f)->Append(std::string(70000, '\0')).ok());
  ASSERT_TRUE((*f)->Close().ok());
  auto replayed = ReplayAll(&env_, dir_);
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_EQ(replayed.records, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(replayed.report.truncated_offset, LsnOffset(lsns[1]));
  EXPECT_EQ(*env_.GetFileSize(SegmentPath(1)), LsnOffset(lsns[1]));
}

TEST_F(ReplayTest, ReadOnlyReplayReportsButChangesNothing) {
  WriteSegments({{"a", "b"}});
  std::string full = *port::ReadFileToString(&env_, SegmentPath(1));
  WriteRaw(SegmentPath(1), full.substr(0, full.size() - 2));
  ReplayOptions options;
  options.repair = false;
  auto replayed = ReplayAll(&env_, dir_, options);
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_TRUE(replayed.report.damaged);
  EXPECT_FALSE(replayed.report.truncated);
  EXPECT_EQ(*env_.GetFileSize(SegmentPath(1)), full.size() - 2);
}

TEST_F(ReplayTest, MissingSegmentInTheMiddleIsCorruption) {
  WriteSegments({{"a"}, {"b"}, {"c"}});
  ASSERT_TRUE(env_.RemoveFile(SegmentPath(2)).ok());
  auto replayed = ReplayAll(&env_, dir_);
  EXPECT_TRUE(replayed.status.IsCorruption());
  EXPECT_NE(replayed.status.message().find("00000002.wal"), std::string::npos)
      << replayed.status.message();
  EXPECT_EQ(replayed.records, std::vector<std::string>{"a"});
}

TEST_F(ReplayTest, MinSegmentSkipsFlushedSegments) {
  WriteSegments({{"a"}, {"b"}, {"c"}});
  ReplayOptions options;
  options.min_segment = 2;
  auto replayed = ReplayAll(&env_, dir_, options);
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_EQ(replayed.records, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(replayed.report.segments, 2u);
}

TEST_F(ReplayTest, CallbackErrorStopsReplay) {
  WriteSegments({{"a", "b", "c"}});
  int calls = 0;
  auto report = ReplayWal(&env_, dir_, [&](std::string_view record) {
    ++calls;
    return record == "b" ? Status::Internal("stop") : Status::OK();
  });
  EXPECT_EQ(report.status().code(), Status::Code::kInternal);
  EXPECT_EQ(calls, 2);
}

// A segment header written by hand: magic, version, number.
std::string HeaderFragment(uint32_t magic, uint32_t version, uint64_t number) {
  std::string payload;
  PutFixed32(&payload, magic);
  PutFixed32(&payload, version);
  PutFixed64(&payload, number);
  std::string typed = std::string(1, static_cast<char>(FragmentType::kSegmentHeader)) + payload;
  std::string out;
  PutFixed32(&out, crc32c::Mask(crc32c::Value(typed)));
  out.push_back(static_cast<char>(payload.size()));
  out.push_back(0);
  out.append(typed);
  return out;
}

TEST_F(ReplayTest, NewerFormatVersionIsUnsupportedAndUntouched) {
  ASSERT_TRUE(env_.CreateDirs(dir_).ok());
  std::string bytes = HeaderFragment(kSegmentMagic, kFormatVersion + 1, 1) + "more bytes";
  WriteRaw(SegmentPath(1), bytes);
  auto replayed = ReplayAll(&env_, dir_);
  EXPECT_EQ(replayed.status.code(), Status::Code::kUnsupported);
  EXPECT_EQ(*port::ReadFileToString(&env_, SegmentPath(1)), bytes);
}

TEST_F(ReplayTest, HeaderNamingAnotherSegmentIsDamage) {
  ASSERT_TRUE(env_.CreateDirs(dir_).ok());
  WriteRaw(SegmentPath(1), HeaderFragment(kSegmentMagic, kFormatVersion, 1));
  WriteRaw(SegmentPath(2), HeaderFragment(kSegmentMagic, kFormatVersion, 7));
  ReplayOptions options;
  options.repair = false;
  auto replayed = ReplayAll(&env_, dir_, options);
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_TRUE(replayed.report.damaged);
  EXPECT_EQ(replayed.report.truncated_file, SegmentPath(2));
  EXPECT_NE(replayed.report.detail.find("names segment 7"), std::string::npos)
      << replayed.report.detail;
}

}  // namespace
}  // namespace gnomon::wal
