// Extended (make test-extended): the generator's first lines equal those of TSBS's own
// xz-compressed files in the team's shared folder (../shared/tsbs, or $GNOMON_SHARED_DIR). The
// unconditional proof is tsbs_golden_test.cc's whole-stream SHA-256; this adds a readable first
// difference. Skips, saying so, where the files are absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/bench/generated_source.h"
#include "src/bench/input_source.h"
#include "src/bench/tsbs_reference.h"

namespace gnomon::bench {
namespace {

constexpr size_t kCompareLines = 20000;

// The first `n` lines of `source` (fewer at its end), which is closed afterwards.
std::vector<std::string> FirstLines(ByteSource* source, size_t n) {
  std::vector<std::string> lines(1);
  char buf[1 << 16];
  while (lines.size() <= n) {
    auto got = source->Read(buf, sizeof(buf));
    if (!got.ok() || *got == 0) break;
    for (size_t i = 0; i < *got && lines.size() <= n; ++i) {
      if (buf[i] == '\n') {
        lines.emplace_back();
      } else {
        lines.back().push_back(buf[i]);
      }
    }
  }
  lines.pop_back();  // the unfinished line
  (void)source->Close();  // an xz cut off mid-stream exits on SIGPIPE: not ours to judge
  return lines;
}

void CheckHeadAgainstFile(std::string_view name) {
  const TsbsReferenceSet* set = FindTsbsReference(name);
  ASSERT_NE(set, nullptr) << name;
  const std::string path = TsbsReferenceXzPath(*set, GNOMON_SHARED_DIR);
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "input missing: " << path;
  auto file = OpenByteSource(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  std::vector<std::string> ref = FirstLines(file->get(), kCompareLines);
  ASSERT_EQ(ref.size(), kCompareLines) << "could not read " << path << " with xz -dc";
  auto generated = NewGeneratedByteSource(TsbsReferenceConfig(*set));
  std::vector<std::string> ours = FirstLines(generated.get(), kCompareLines);
  ASSERT_EQ(ours.size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    ASSERT_EQ(ours[i], ref[i]) << "first difference at line " << i + 1;
  }
}

TEST(TsbsGoldenFileTest, CpuOnlyHeadMatchesFile) { CheckHeadAgainstFile("cpu-only-s100-1d"); }
TEST(TsbsGoldenFileTest, DevopsHeadMatchesFile) { CheckHeadAgainstFile("devops-s10-1d"); }
TEST(TsbsGoldenFileTest, IotHeadMatchesFile) { CheckHeadAgainstFile("iot-s100-1d"); }

}  // namespace
}  // namespace gnomon::bench
