// Decoders face bytes from disk: every truncation of a valid block must be reported as Corruption, and
// arbitrary bytes must never crash, hang or read outside the block (run under ASan to check the last).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "src/encoding/block_codec.h"
#include "src/encoding/encoding_test_util.h"

namespace gnomon::encoding {
namespace {

using namespace testing;  // NOLINT: test shapes

enum class Type { kInt, kUInt, kFloat, kBool, kString };

struct ValidBlock {
  Type type;
  std::string bytes;
};

Status DecodeAs(Type type, std::string_view block) {
  switch (type) {
    case Type::kInt: {
      std::vector<int64_t> out;
      Status s = DecodeInt64s(block, &out);
      if (!s.ok() && !out.empty()) return Status::Internal("output not cleared on error");
      return s;
    }
    case Type::kUInt: {
      std::vector<uint64_t> out;
      return DecodeUInt64s(block, &out);
    }
    case Type::kFloat: {
      std::vector<double> out;
      Status s = DecodeFloat64s(block, &out);
      if (!s.ok() && !out.empty()) return Status::Internal("output not cleared on error");
      return s;
    }
    case Type::kBool: {
      std::vector<uint8_t> out;
      return DecodeBools(block, &out);
    }
    case Type::kString: {
      std::vector<std::string_view> out;
      std::string arena;
      Status s = DecodeStrings(block, &out, &arena);
      if (!s.ok() && !out.empty()) return Status::Internal("output not cleared on error");
      return s;
    }
  }
  return Status::Internal("unreachable");
}

const Type kAllTypes[] = {Type::kInt, Type::kUInt, Type::kFloat, Type::kBool, Type::kString};

std::vector<ValidBlock> ValidBlocks() {
  std::vector<ValidBlock> blocks;
  for (IntShape shape : AllIntShapes()) {
    for (size_t n : {0, 1, 3, 130, 2000}) {
      std::string b;
      EncodeInt64s(MakeInts(shape, n), &b);
      blocks.push_back({Type::kInt, b});
      b.clear();
      EncodeUInt64s(MakeUInts(shape, n), &b);
      blocks.push_back({Type::kUInt, b});
      b.clear();
      EncodeInt64s(MakeInts(shape, n), ChunkLayout{7, 50}, &b);  // chunked_delta where it applies
      blocks.push_back({Type::kInt, b});
    }
  }
  for (FloatShape shape : AllFloatShapes()) {
    for (size_t n : {1, 5, 300}) {
      std::string b;
      EncodeFloat64s(MakeFloats(shape, n), &b);
      blocks.push_back({Type::kFloat, b});
    }
  }
  std::mt19937_64 rng(5);
  for (size_t n : {1, 9, 300, 3000}) {
    std::vector<uint8_t> random(n), runs(n);
    uint8_t r = 0;
    for (size_t i = 0; i < n; ++i) {
      random[i] = rng() & 1;
      if (rng() % 300 == 0) r ^= 1;
      runs[i] = r;
    }
    for (const auto& v : {random, runs}) {
      std::string b;
      EncodeBools(v, &b);
      blocks.push_back({Type::kBool, b});
    }
  }
  for (size_t n : {1, 4, 200, 1000}) {
    std::vector<std::string> few(n), many(n);
    for (size_t i = 0; i < n; ++i) {
      few[i] = "dc-" + std::to_string(i % 3);
      many[i] = "series value " + std::to_string(i * 7919);
    }
    for (const auto& owned : {few, many}) {
      const std::vector<std::string_view> v(owned.begin(), owned.end());
      std::string b;
      EncodeStrings(v, &b);
      blocks.push_back({Type::kString, b});
    }
  }
  return blocks;
}

TEST(DecoderRobustnessTest, CoversEveryCodecAndCompression) {
  std::set<std::string_view> seen;
  for (const ValidBlock& b : ValidBlocks()) seen.insert(CodecName(static_cast<uint8_t>(b.bytes[0])));
  for (const char* name : {"constant", "constant_delta", "rle", "for", "delta_for", "delta_delta_for", "varint",
                           "delta_varint+zstd", "delta_varint+huffman", "chunked_delta", "alp", "gorilla", "raw_float", "bit_packed", "bool_rle", "dictionary",
                           "plain_strings+lz4"}) {
    EXPECT_TRUE(seen.count(name)) << name;
  }
}

TEST(DecoderRobustnessTest, EveryTruncationIsCorruption) {
  for (const ValidBlock& b : ValidBlocks()) {
    ASSERT_TRUE(DecodeAs(b.type, b.bytes).ok());
    for (size_t cut = 0; cut < b.bytes.size(); ++cut) {
      // A heap copy of exactly `cut` bytes, so a sanitizer build catches any over-read.
      const std::string prefix = b.bytes.substr(0, cut);
      Status s = DecodeAs(b.type, prefix);
      ASSERT_TRUE(s.IsCorruption()) << CodecName(static_cast<uint8_t>(b.bytes[0])) << " cut " << cut << " of "
                                    << b.bytes.size() << ": " << s.ToString();
    }
  }
}

TEST(DecoderRobustnessTest, MutatedBlocksNeverCrash) {
  std::mt19937_64 rng(11);
  for (const ValidBlock& b : ValidBlocks()) {
    for (int i = 0; i < 200; ++i) {
      std::string m = b.bytes;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < edits; ++k) {
        const size_t at = rng() % m.size();
        if (rng() % 2) {
          m[at] = static_cast<char>(m[at] ^ (1 << (rng() % 8)));
        } else {
          m[at] = static_cast<char>(rng());
        }
      }
      for (Type t : kAllTypes) {
        Status s = DecodeAs(t, m);
        ASSERT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
      }
    }
  }
}

TEST(DecoderRobustnessTest, RandomBytesNeverCrash) {
  std::mt19937_64 rng(13);
  for (int i = 0; i < 20000; ++i) {
    std::string m(rng() % 64, '\0');
    for (auto& c : m) c = static_cast<char>(rng());
    if (!m.empty() && i % 2 == 0) m[0] = static_cast<char>(1 + rng() % kMaxCodecId + ((rng() % 3) << 6));  // valid tag
    for (Type t : kAllTypes) {
      Status s = DecodeAs(t, m);
      ASSERT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
    }
  }
}

TEST(DecoderRobustnessTest, ErrorsNameReasonAndOffset) {
  std::string b;
  EncodeInt64s(MakeInts(IntShape::kJitteredTimestamps, 500), &b);
  std::vector<int64_t> out;
  Status s = DecodeInt64s(std::string_view(b).substr(0, b.size() - 3), &out);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("delta_for"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("offset"), std::string::npos) << s.message();
  s = DecodeInt64s(std::string("\x3f\x01", 2), &out);
  EXPECT_NE(s.message().find("unknown codec tag 63"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace gnomon::encoding
