// Bad segment bytes never crash and never read as data: every single-byte change anywhere in the
// fixture segment (magic, blocks, index, footer) is reported as Corruption naming the file, by
// Open (which verifies every block's checksum) or by the read that decodes the block; every
// truncation fails Open.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>

#include "src/base/coding.h"
#include "src/port/mem_env.h"
#include "src/storage/segment_reader.h"
#include "src/storage/segment_test_util.h"

namespace gnomon::storage {
namespace {

constexpr char kGood[] = "/c/000007.seg";
constexpr char kBad[] = "/c/000008.seg";

class SegmentCorruptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(env_.CreateDirs("/c").ok());
    ASSERT_TRUE(testing::WriteFixtureSegment(&env_, kGood).ok());
    auto bytes = port::ReadFileToString(&env_, kGood);
    ASSERT_TRUE(bytes.ok());
    good_ = *bytes;
    index_offset_ = DecodeFixed64(good_.data() + good_.size() - kSegmentFooterSize);
  }

  static Status Store(port::Env* env, const std::string& path, std::string_view bytes) {
    auto file = env->NewWritableFile(path);
    if (!file.ok()) return file.status();
    GNOMON_RETURN_IF_ERROR((*file)->Append(bytes));
    return (*file)->Close();
  }

  // Stores `bytes` at `path`, opens it and reads every block; the first failure.
  Status OpenAndReadAll(port::Env* env, const std::string& path, std::string_view bytes) {
    GNOMON_RETURN_IF_ERROR(Store(env, path, bytes));
    auto reader = SegmentReader::Open(env, path);
    if (!reader.ok()) return reader.status();
    return testing::ReadEverything(**reader);
  }

  std::string Region(size_t offset) const {
    if (offset < sizeof(kSegmentMagic)) return "magic";
    if (offset < index_offset_) return "data block";
    if (offset < good_.size() - kSegmentFooterSize) return "index";
    return "footer";
  }

  port::MemEnv env_;
  std::string good_;
  uint64_t index_offset_ = 0;
};

TEST_F(SegmentCorruptionTest, FixtureIsIntactAndSpansEveryRegion) {
  ASSERT_TRUE(OpenAndReadAll(&env_, kBad, good_).ok());
  EXPECT_GT(index_offset_, sizeof(kSegmentMagic));
  EXPECT_LT(index_offset_, good_.size() - kSegmentFooterSize);
  // Small enough to try every byte.
  EXPECT_LT(good_.size(), 16u << 10);
}

TEST_F(SegmentCorruptionTest, EveryByteFlipIsDetected) {
  std::map<std::string, int> detected;
  for (size_t offset = 0; offset < good_.size(); ++offset) {
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
      std::string bad = good_;
      bad[offset] = static_cast<char>(bad[offset] ^ mask);
      Status s = OpenAndReadAll(&env_, kBad, bad);
      ASSERT_TRUE(s.IsCorruption()) << Region(offset) << " byte " << offset << " ^ " << int{mask}
                                    << ": " << s.ToString();
      ASSERT_NE(s.message().find(kBad), std::string::npos)
          << "error does not name the file: " << s.ToString();
      ++detected[Region(offset)];
    }
  }
  EXPECT_EQ(detected.size(), 4u);
}

TEST_F(SegmentCorruptionTest, BlockFlipsFailOpenNamingTheBlock) {
  // Every block's checksum is verified when the segment opens: a flipped data byte fails Open
  // with the file name and the damaged block's offset, before any read can return wrong values.
  auto good = SegmentReader::Open(&env_, kGood);
  ASSERT_TRUE(good.ok());
  const RowGroupMeta first = (*good)->group((*good)->index().series.front(), 0);
  std::string bad = good_;
  bad[first.time_offset + first.time_length - 1] ^= 0x10;
  ASSERT_TRUE(Store(&env_, kBad, bad).ok());
  auto reader = SegmentReader::Open(&env_, kBad);
  ASSERT_FALSE(reader.ok());
  const Status& s = reader.status();
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find(kBad), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("offset " + std::to_string(first.time_offset)), std::string::npos)
      << s.ToString();
}

TEST_F(SegmentCorruptionTest, EveryTruncationFailsOpen) {
  for (size_t len = 0; len < good_.size(); ++len) {
    Status s = OpenAndReadAll(&env_, kBad, std::string_view(good_).substr(0, len));
    ASSERT_TRUE(s.IsCorruption()) << "truncated to " << len << ": " << s.ToString();
    ASSERT_NE(s.message().find(kBad), std::string::npos) << s.ToString();
  }
  // Bytes appended after the footer move it: also Corruption, not a misread.
  Status s = OpenAndReadAll(&env_, kBad, good_ + std::string(5, '\0'));
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST_F(SegmentCorruptionTest, TruncatedRealFilesFailCleanly) {
  // The POSIX env maps files (an empty file is not mapped at all): the same checks hold there.
  port::Env* env = port::Env::Default();
  const std::string dir = ::testing::TempDir() + "/gnomon_segment_corruption_" +
                          std::to_string(::getpid());
  ASSERT_TRUE(env->CreateDirs(dir).ok());
  const std::string path = dir + "/9.seg";
  const size_t footer = good_.size() - kSegmentFooterSize;
  for (size_t len : {size_t{0}, size_t{1}, size_t{8}, sizeof(kSegmentMagic) + kSegmentFooterSize - 1,
                     sizeof(kSegmentMagic) + kSegmentFooterSize, size_t{index_offset_}, footer,
                     footer + 1, good_.size() - 1}) {
    Status s = OpenAndReadAll(env, path, std::string_view(good_).substr(0, len));
    EXPECT_TRUE(s.IsCorruption()) << "truncated to " << len << ": " << s.ToString();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.ToString();
  }
  std::string bad = good_;
  bad[index_offset_ + 3] ^= 0x04;
  Status s = OpenAndReadAll(env, path, bad);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(OpenAndReadAll(env, path, good_).ok());
  ASSERT_TRUE(env->RemoveDirRecursive(dir).ok());
}

TEST_F(SegmentCorruptionTest, MissingFileIsNotFound) {
  auto reader = SegmentReader::Open(&env_, "/c/absent.seg");
  ASSERT_FALSE(reader.ok());
  EXPECT_TRUE(reader.status().IsNotFound()) << reader.status().ToString();
}

}  // namespace
}  // namespace gnomon::storage
