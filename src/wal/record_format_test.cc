// Framing round trips through RecordEncoder and RecordReader, and the reader's damage reports.
#include <gtest/gtest.h>

#include "src/port/mem_env.h"
#include "src/wal/record_encoder.h"
#include "src/wal/record_reader.h"
#include "src/wal/segment_file.h"
#include "src/wal/wal_format.h"
#include "src/wal/wal_test_util.h"

namespace gnomon::wal {
namespace {

using testing::MakeRecord;

std::string Hex(std::string_view s) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

class RecordFormatTest : public ::testing::Test {
 protected:
  // Writes `bytes` as /f and reads every record back until EOF or damage.
  RecordReader::Outcome ReadAll(const std::string& bytes, std::vector<std::string>* records,
                                Damage* damage = nullptr, uint64_t* valid_end = nullptr,
                                bool* valid_after = nullptr) {
    EXPECT_TRUE(port::WriteFileAtomic(&env_, "/f", bytes).ok());
    auto file = env_.NewSequentialFile("/f");
    EXPECT_TRUE(file.ok());
    RecordReader reader(file->get());
    while (true) {
      std::string_view record;
      bool is_header = false;
      auto outcome = reader.Next(&record, &is_header);
      EXPECT_TRUE(outcome.ok());
      if (*outcome == RecordReader::Outcome::kRecord) {
        if (!is_header) records->emplace_back(record);
        continue;
      }
      if (damage != nullptr) *damage = reader.damage();
      if (valid_end != nullptr) *valid_end = reader.valid_end();
      if (valid_after != nullptr && *outcome == RecordReader::Outcome::kDamaged) {
        *valid_after = *reader.ScanPastDamage();
      }
      return *outcome;
    }
  }

  port::MemEnv env_;
};

// The bytes of a tiny segment, checked against an independent encoding (docs/format/wal.md).
TEST_F(RecordFormatTest, GoldenSegmentBytes) {
  RecordEncoder encoder;
  std::string out;
  encoder.AddSegmentHeader(1, &out);
  encoder.AddRecord("abc", &out);
  uint64_t end = encoder.AddRecord("", &out);
  EXPECT_EQ(end, out.size());
  EXPECT_EQ(Hex(out),
            "be4a3b651000054e47574c010000000100000000000000"  // segment header, segment 1
            "f270e89d030001616263"                            // FULL "abc"
            "052b2843000001");                                // FULL ""
  auto header = DecodeSegmentHeader(out.substr(kFragmentHeaderSize, kSegmentHeaderPayloadSize));
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->number, 1u);
  EXPECT_EQ(header->version, kFormatVersion);
}

TEST_F(RecordFormatTest, EndOffsetMatchesEncoding) {
  for (uint64_t start : {0ul, 1ul, 100ul, kBlockSize - 8, kBlockSize - 7, kBlockSize - 6,
                         kBlockSize - 1, kBlockSize, 5 * kBlockSize + 12345}) {
    for (size_t n : {0ul, 1ul, 7ul, 100ul, kBlockSize - 14, kBlockSize - 7, kBlockSize - 6,
                     kBlockSize, 2 * (kBlockSize - 7), 2 * (kBlockSize - 7) + 1, 300000ul}) {
      RecordEncoder encoder(start);
      std::string out;
      uint64_t end = encoder.AddRecord(MakeRecord(n, n), &out);
      EXPECT_EQ(end, start + out.size());
      EXPECT_EQ(RecordEncoder::EndOffset(start, n), end) << "start " << start << " n " << n;
      // No fragment may straddle a block: every block boundary inside the output starts one.
      for (uint64_t b = (start / kBlockSize + 1) * kBlockSize; b < end; b += kBlockSize) {
        size_t pos = b - start;
        ASSERT_LE(pos + kFragmentHeaderSize, out.size());
        uint8_t type = static_cast<uint8_t>(out[pos + 6]);
        EXPECT_TRUE(type >= 1 && type <= 4) << "type " << int(type) << " at " << pos;
      }
    }
  }
}

TEST_F(RecordFormatTest, RoundTripsAcrossBlockShapes) {
  // Sizes that land a record end exactly on, just before and just after block boundaries, so
  // every trailer length (0..6 bytes) and zero-length fragments occur.
  std::vector<size_t> sizes = {0,
                               1,
                               100,
                               kBlockSize - 7 - 23,
                               kBlockSize - 7,
                               kBlockSize - 8,
                               kBlockSize - 13,
                               kBlockSize - 14,
                               kBlockSize,
                               kBlockSize + 1,
                               3 * kBlockSize,
                               1 << 20};
  for (size_t trailer = 0; trailer <= 8; ++trailer) {
    sizes.push_back(kBlockSize - 23 - 7 - 7 - trailer);  // after the header record
  }
  RecordEncoder encoder;
  std::string bytes;
  encoder.AddSegmentHeader(1, &bytes);
  std::vector<std::string> expected;
  for (size_t i = 0; i < sizes.size(); ++i) {
    expected.push_back(MakeRecord(i, sizes[i]));
    encoder.AddRecord(expected.back(), &bytes);
    expected.push_back(MakeRecord(i + 1000, i % 3));  // small ones in between
    encoder.AddRecord(expected.back(), &bytes);
  }
  std::vector<std::string> got;
  uint64_t valid_end = 0;
  EXPECT_EQ(ReadAll(bytes, &got, nullptr, &valid_end), RecordReader::Outcome::kEof);
  EXPECT_EQ(valid_end, bytes.size());
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "record " << i;
}

TEST_F(RecordFormatTest, ExactlyFullBlockThenEof) {
  RecordEncoder encoder;
  std::string bytes;
  encoder.AddSegmentHeader(1, &bytes);
  encoder.AddRecord(std::string(kBlockSize - 23 - 7, 'x'), &bytes);
  ASSERT_EQ(bytes.size(), kBlockSize);
  std::vector<std::string> got;
  EXPECT_EQ(ReadAll(bytes, &got), RecordReader::Outcome::kEof);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].size(), kBlockSize - 30);
}

TEST_F(RecordFormatTest, ChecksumMismatchIsReportedAtItsFragment) {
  RecordEncoder encoder;
  std::string bytes;
  encoder.AddSegmentHeader(1, &bytes);
  uint64_t first_end = encoder.AddRecord("first", &bytes);
  encoder.AddRecord("second", &bytes);
  encoder.AddRecord("third", &bytes);
  bytes[first_end + kFragmentHeaderSize + 2] ^= 0x10;  // a payload byte of "second"
  std::vector<std::string> got;
  Damage damage;
  uint64_t valid_end = 0;
  EXPECT_EQ(ReadAll(bytes, &got, &damage, &valid_end), RecordReader::Outcome::kDamaged);
  EXPECT_EQ(got, std::vector<std::string>{"first"});
  EXPECT_EQ(damage.offset, first_end);
  EXPECT_EQ(valid_end, first_end);
  EXPECT_FALSE(damage.at_eof);
  EXPECT_EQ(damage.reason, "checksum mismatch");
}

TEST_F(RecordFormatTest, TornFragmentIsAtEof) {
  RecordEncoder encoder;
  std::string bytes;
  encoder.AddSegmentHeader(1, &bytes);
  uint64_t first_end = encoder.AddRecord("first", &bytes);
  encoder.AddRecord(std::string(1000, 'y'), &bytes);
  for (size_t cut : {first_end + 3, first_end + 7, first_end + 500}) {
    std::vector<std::string> got;
    Damage damage;
    uint64_t valid_end = 0;
    bool valid_after = true;
    EXPECT_EQ(ReadAll(bytes.substr(0, cut), &got, &damage, &valid_end, &valid_after),
              RecordReader::Outcome::kDamaged);
    EXPECT_EQ(got, std::vector<std::string>{"first"});
    EXPECT_TRUE(damage.at_eof) << damage.reason;
    EXPECT_EQ(damage.offset, first_end);
    EXPECT_EQ(valid_end, first_end);
    EXPECT_FALSE(valid_after);
  }
}

TEST_F(RecordFormatTest, ZeroFilledTailIsDamage) {
  RecordEncoder encoder;
  std::string bytes;
  encoder.AddSegmentHeader(1, &bytes);
  uint64_t end = encoder.AddRecord("only", &bytes);
  bytes.append(5000, '\0');
  std::vector<std::string> got;
  Damage damage;
  bool valid_after = true;
  EXPECT_EQ(ReadAll(bytes, &got, &damage, nullptr, &valid_after), RecordReader::Outcome::kDamaged);
  EXPECT_EQ(damage.offset, end);
  EXPECT_NE(damage.reason.find("zero"), std::string::npos);
  EXPECT_FALSE(valid_after);
}

TEST_F(RecordFormatTest, DamageWithValidBlocksAfterItIsNotATornWrite) {
  RecordEncoder encoder;
  std::string bytes;
  encoder.AddSegmentHeader(1, &bytes);
  uint64_t end = encoder.AddRecord("a", &bytes);
  encoder.AddRecord(std::string(3 * kBlockSize, 'z'), &bytes);  // middles start later blocks
  bytes[end + 1] ^= 0x01;  // the big record's first fragment's CRC
  std::vector<std::string> got;
  Damage damage;
  bool valid_after = false;
  EXPECT_EQ(ReadAll(bytes, &got, &damage, nullptr, &valid_after), RecordReader::Outcome::kDamaged);
  EXPECT_EQ(damage.offset, end);
  EXPECT_TRUE(valid_after);
}

TEST_F(RecordFormatTest, BrokenFragmentSequencesAreDamage) {
  // Block 0 of `full`: header record + a record filling the block; block 1: FULL "x".
  RecordEncoder full_encoder;
  std::string full;
  full_encoder.AddSegmentHeader(1, &full);
  full_encoder.AddRecord(std::string(kBlockSize - 23 - 7, 'f'), &full);
  full_encoder.AddRecord("x", &full);
  // Block 0 of `split`: header record + FIRST; block 1 starts with the LAST fragment.
  RecordEncoder split_encoder;
  std::string split;
  split_encoder.AddSegmentHeader(1, &split);
  split_encoder.AddRecord(std::string(kBlockSize, 's'), &split);

  std::vector<std::string> got;
  Damage damage;
  bool valid_after = false;
  // LAST without FIRST.
  EXPECT_EQ(ReadAll(full.substr(0, kBlockSize) + split.substr(kBlockSize), &got, &damage, nullptr,
                    &valid_after),
            RecordReader::Outcome::kDamaged);
  EXPECT_EQ(got.size(), 1u);
  EXPECT_EQ(damage.offset, kBlockSize);
  EXPECT_NE(damage.reason.find("without a first"), std::string::npos);
  EXPECT_TRUE(valid_after);
  // FIRST followed by FULL.
  got.clear();
  EXPECT_EQ(ReadAll(split.substr(0, kBlockSize) + full.substr(kBlockSize), &got, &damage, nullptr,
                    &valid_after),
            RecordReader::Outcome::kDamaged);
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(damage.offset, 23u);
  EXPECT_FALSE(damage.at_eof);
  EXPECT_TRUE(valid_after);
  // FIRST followed by EOF is torn.
  got.clear();
  EXPECT_EQ(ReadAll(split.substr(0, kBlockSize), &got, &damage), RecordReader::Outcome::kDamaged);
  EXPECT_TRUE(damage.at_eof);
  EXPECT_EQ(damage.offset, 23u);
}

}  // namespace
}  // namespace gnomon::wal
