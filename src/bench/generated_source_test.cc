#include "src/bench/generated_source.h"

#include <gtest/gtest.h>

#include <string>

#include "src/bench/test_sinks.h"
#include "src/bench/time_parse.h"

namespace gnomon::bench {
namespace {

DataGenConfig SmallCpuOnly() {
  DataGenConfig c;
  c.use_case = "cpu-only";
  c.scale = 20;
  c.seed = 123;
  c.start_ns = *ParseRfc3339Nanos("2023-06-11T00:00:00Z");
  c.end_ns = *ParseRfc3339Nanos("2023-06-11T03:00:00Z");  // 1,080 steps: several 1 MiB chunks
  return c;
}

std::string ReadAll(ByteSource* source, size_t read_size) {
  std::string out;
  std::string buf(read_size, '\0');
  for (;;) {
    auto n = source->Read(buf.data(), buf.size());
    EXPECT_TRUE(n.ok());
    if (!n.ok() || *n == 0) break;
    out.append(buf, 0, *n);
  }
  return out;
}

TEST(GeneratedByteSourceTest, YieldsExactlyTheGeneratorsBytes) {
  testing::StringFile expected;
  ASSERT_TRUE(GenerateData(SmallCpuOnly(), &expected).ok());
  ASSERT_GT(expected.data().size(), size_t{3} << 20);
  for (size_t read_size : {size_t{4093}, size_t{1} << 20, size_t{5} << 20}) {
    auto source = NewGeneratedByteSource(SmallCpuOnly());
    std::string got = ReadAll(source.get(), read_size);
    EXPECT_TRUE(source->Close().ok());
    EXPECT_EQ(got.size(), expected.data().size()) << read_size;
    EXPECT_TRUE(got == expected.data()) << "read size " << read_size;
    EXPECT_EQ(source->PositionOnDisk(), got.size());
  }
  // Byte at a time, on a prefix.
  auto source = NewGeneratedByteSource(SmallCpuOnly());
  std::string prefix;
  char c;
  for (int i = 0; i < 10000; ++i) {
    auto n = source->Read(&c, 1);
    ASSERT_TRUE(n.ok());
    ASSERT_EQ(*n, 1u);
    prefix.push_back(c);
  }
  EXPECT_EQ(prefix, expected.data().substr(0, 10000));
  EXPECT_TRUE(source->Close().ok());
}

TEST(GeneratedByteSourceTest, ClosingEarlyStopsTheGenerator) {
  DataGenConfig c = SmallCpuOnly();
  c.scale = 100000;
  c.end_ns = c.start_ns + 24 * 3600 * 1'000'000'000LL;  // ~30 GB if it ran to the end
  auto source = NewGeneratedByteSource(c);
  char buf[4096];
  auto n = source->Read(buf, sizeof(buf));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, sizeof(buf));
  EXPECT_TRUE(source->Close().ok());
  // Destroying an unread, unclosed source also stops it.
  auto unread = NewGeneratedByteSource(c);
}

TEST(GeneratedByteSourceTest, InvalidConfigIsReportedByClose) {
  DataGenConfig c = SmallCpuOnly();
  c.use_case = "no-such-case";
  auto source = NewGeneratedByteSource(c);
  char buf[16];
  auto n = source->Read(buf, sizeof(buf));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0u);
  Status s = source->Close();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("no-such-case"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace gnomon::bench
