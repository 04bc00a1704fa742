#include "src/bench/line_batcher.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "src/bench/generated_source.h"
#include "src/bench/input_source.h"
#include "src/bench/tsbs_reference.h"

namespace gnomon::bench {
namespace {

uint64_t Fields(std::string_view line) {
  uint64_t n = 0;
  EXPECT_TRUE(CountLine(line, &n)) << line;
  return n;
}

TEST(CountLineTest, CountsFieldsLikeTsbs) {
  EXPECT_EQ(Fields("cpu,hostname=host_0 usage_user=58i,usage_system=2i 1686441600000000000"), 2u);
  EXPECT_EQ(Fields("cpu value=1"), 1u);                 // no timestamp
  EXPECT_EQ(Fields("cpu value=1 1\r"), 1u);             // CRLF
  EXPECT_EQ(Fields("cpu,host=a\\ b x=1,y=2 1"), 2u);    // escaped space in a tag
  EXPECT_EQ(Fields("my\\,m x=1,y=2,z=3"), 3u);          // escaped comma in the measurement
  EXPECT_EQ(Fields("m s=\"a, b c\",t=1i 5"), 2u);       // comma and space inside a string field
  EXPECT_EQ(Fields("m s=\"say \\\"hi, x\\\"\",t=1 5"), 2u);  // escaped quotes in a string
  EXPECT_EQ(Fields("m x\\,y=1,z=2 5"), 2u);             // escaped comma in a field key
  uint64_t n = 7;
  EXPECT_FALSE(CountLine("", &n));
  EXPECT_EQ(n, 0u);
  EXPECT_FALSE(CountLine("   \r", &n));
  EXPECT_FALSE(CountLine("# a comment, with commas", &n));
}

// The byte-by-byte definition CountLine implements (its fast path must agree with it).
bool ReferenceCountLine(std::string_view line, uint64_t* fields) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  size_t i = 0;
  const size_t n = line.size();
  while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i == n || line[i] == '#') {
    *fields = 0;
    return false;
  }
  for (; i < n; ++i) {
    if (line[i] == '\\') {
      ++i;
    } else if (line[i] == ' ') {
      break;
    }
  }
  ++i;
  uint64_t count = 1;
  bool quoted = false;
  for (; i < n; ++i) {
    char c = line[i];
    if (c == '\\') {
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (!quoted) {
      if (c == ',') {
        ++count;
      } else if (c == ' ') {
        break;
      }
    }
  }
  *fields = count;
  return true;
}

RC_GTEST_PROP(CountLineTest, AgreesWithTheByteScan, ()) {
  // Lines over the bytes that matter to the scan, so escapes, quotes and spaces meet often.
  const auto line = *rc::gen::container<std::string>(
      rc::gen::element(' ', ',', '"', '\\', '#', '\t', '\r', '=', 'a', 'b', '1'));
  uint64_t fast = 99, reference = 99;
  RC_ASSERT(CountLine(line, &fast) == ReferenceCountLine(line, &reference));
  RC_ASSERT(fast == reference);
}

TEST(CountLineProtocolTest, HandlesMissingFinalNewlineAndCrlf) {
  LineCounts c = CountLineProtocol("a x=1,y=2 1\r\n\r\nb x=1 2\n# note\nc z=3,w=4,v=5 3");
  EXPECT_EQ(c.rows, 3u);
  EXPECT_EQ(c.metrics, 6u);
  EXPECT_EQ(CountLineProtocol("").rows, 0u);
}

// Runs `input` through a batcher fed in pieces of `piece` bytes.
std::vector<LineBatch> Batch(const std::string& input, uint64_t lines, size_t piece) {
  std::vector<LineBatch> out;
  LineBatcher batcher(lines, [&](LineBatch&& b) {
    out.push_back(std::move(b));
    return Status::OK();
  });
  for (size_t pos = 0; pos < input.size(); pos += piece) {
    EXPECT_TRUE(batcher.Add(std::string_view(input).substr(pos, piece)).ok());
  }
  EXPECT_TRUE(batcher.Finish().ok());
  return out;
}

TEST(LineBatcherTest, CutsWholeLinesIntoBatchesOfNRows) {
  std::string input;
  for (int i = 0; i < 10; ++i) input += "m,t=" + std::to_string(i) + " a=1,b=2 " + std::to_string(i) + "\n";
  for (size_t piece : {1, 2, 3, 7, 16, 1000}) {
    std::vector<LineBatch> batches = Batch(input, 4, piece);
    ASSERT_EQ(batches.size(), 3u) << piece;
    std::string joined;
    for (size_t i = 0; i < batches.size(); ++i) {
      EXPECT_EQ(batches[i].counts.rows, i < 2 ? 4u : 2u);
      EXPECT_EQ(batches[i].counts.metrics, batches[i].counts.rows * 2);
      EXPECT_EQ(batches[i].body.back(), '\n');
      EXPECT_EQ(CountLineProtocol(batches[i].body).rows, batches[i].counts.rows);
      joined += batches[i].body;
    }
    EXPECT_EQ(joined, input);
  }
}

TEST(LineBatcherTest, MissingFinalNewlineCrlfAndBlankLines) {
  std::string input = "a x=1 1\r\n\r\nb x=1,y=2 2\r\n# c\nc x=1,y=2,z=3 3";
  for (size_t piece : {1, 4, 100}) {
    std::vector<LineBatch> batches = Batch(input, 2, piece);
    ASSERT_EQ(batches.size(), 2u);
    EXPECT_EQ(batches[0].body, "a x=1 1\r\n\r\nb x=1,y=2 2\r\n");
    EXPECT_EQ(batches[0].counts.rows, 2u);
    EXPECT_EQ(batches[0].counts.metrics, 3u);
    EXPECT_EQ(batches[1].body, "# c\nc x=1,y=2,z=3 3");
    EXPECT_EQ(batches[1].counts.rows, 1u);
    EXPECT_EQ(batches[1].counts.metrics, 3u);
  }
}

TEST(LineBatcherTest, TrailingBlankLinesMakeNoRequest) {
  std::vector<LineBatch> batches = Batch("a x=1 1\nb x=1 2\n\n\n", 2, 3);
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0].counts.rows, 2u);
  EXPECT_TRUE(Batch("", 5, 1).empty());
  EXPECT_TRUE(Batch("\n# only a comment\n", 5, 1).empty());
}

// CutLineBatches (views over text in memory) cuts exactly the batches LineBatcher does.
RC_GTEST_PROP(CutLineBatchesProperty, SameBatchesAsLineBatcher, (uint8_t batch_lines)) {
  const auto lines = *rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
      "a x=1 1", "b x=1,y=2 2\r", "", "# c, d", "  ", "m,t=\\ v s=\"a b,c\",n=1i 3"));
  std::string input;
  for (const std::string& line : lines) input += line + "\n";
  if (*rc::gen::arbitrary<bool>() && !input.empty()) input.pop_back();  // no final newline
  const uint64_t n = 1 + batch_lines % 9;
  std::vector<LineBatch> expected = Batch(input, n, 1 + input.size() / 3);
  std::vector<std::pair<std::string, LineCounts>> got;
  RC_ASSERT(CutLineBatches(input, n, [&](std::string_view body, const LineCounts& counts) {
              RC_ASSERT(body.data() >= input.data() &&
                        body.data() + body.size() <= input.data() + input.size());  // a view
              got.emplace_back(std::string(body), counts);
              return Status::OK();
            }).ok());
  RC_ASSERT(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    RC_ASSERT(got[i].first == expected[i].body);
    RC_ASSERT(got[i].second.rows == expected[i].counts.rows);
    RC_ASSERT(got[i].second.metrics == expected[i].counts.metrics);
  }
}

TEST(CutLineBatchesTest, SinkErrorStops) {
  int calls = 0;
  Status s = CutLineBatches("a x=1\nb x=1\nc x=1\n", 1, [&](std::string_view, const LineCounts&) {
    ++calls;
    return Status::Aborted("stop");
  });
  EXPECT_EQ(s.code(), Status::Code::kAborted);
  EXPECT_EQ(calls, 1);
}

TEST(LineBatcherTest, SinkErrorStopsTheBatcher) {
  int calls = 0;
  LineBatcher batcher(1, [&](LineBatch&&) {
    ++calls;
    return Status::Aborted("stop");
  });
  EXPECT_EQ(batcher.Add("a x=1\nb x=1\nc x=1\n").code(), Status::Code::kAborted);
  EXPECT_EQ(calls, 1);
}

RC_GTEST_PROP(LineBatcherProperty, NeverSplitsLinesAndCountsExactly,
              (const std::vector<std::string>& words, uint8_t batch_lines, uint8_t piece)) {
  // Lines "m<i> f0=1,...,fk=1 <i>" with k from the word length, separated by \n or \r\n,
  // sometimes blank, sometimes without a final newline.
  std::string input;
  uint64_t rows = 0, metrics = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    size_t k = words[i].size() % 5;
    if (k == 4) {
      input += "\n";
      continue;
    }
    input += "m" + std::to_string(i) + " ";
    for (size_t f = 0; f <= k; ++f) input += (f ? ",f" : "f") + std::to_string(f) + "=1";
    input += " " + std::to_string(i);
    ++rows;
    metrics += k + 1;
    if (i + 1 < words.size() || words[i].size() % 2 == 0) input += (i % 3 == 0) ? "\r\n" : "\n";
  }
  uint64_t b = batch_lines % 9 + 1;
  std::vector<LineBatch> batches = Batch(input, b, piece % 50 + 1);
  uint64_t seen_rows = 0, seen_metrics = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    const LineBatch& batch = batches[i];
    if (i + 1 < batches.size()) {
      RC_ASSERT(batch.counts.rows == b);
      RC_ASSERT(batch.body.back() == '\n');
    }
    LineCounts recount = CountLineProtocol(batch.body);
    RC_ASSERT(recount.rows == batch.counts.rows);
    RC_ASSERT(recount.metrics == batch.counts.metrics);
    seen_rows += batch.counts.rows;
    seen_metrics += batch.counts.metrics;
  }
  RC_ASSERT(seen_rows == rows);
  RC_ASSERT(seen_metrics == metrics);
}

// Real TSBS data (generated, byte-identical to TSBS's): the first 8 MiB of cpu-only scale 100
// (10 fields per line).
TEST(LineBatcherTest, CountsRealTsbsCpuOnlyLines) {
  auto source = NewGeneratedByteSource(TsbsReferenceConfig(*FindTsbsReference("cpu-only-s100-1d")));
  std::string data(8 << 20, '\0');
  size_t have = 0;
  while (have < data.size()) {
    auto n = source->Read(data.data() + have, data.size() - have);
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    have += *n;
  }
  ASSERT_TRUE(source->Close().ok());
  data.resize(data.rfind('\n') + 1);
  uint64_t rows = 0, metrics = 0;
  LineBatcher batcher(10000, [&](LineBatch&& b) {
    rows += b.counts.rows;
    metrics += b.counts.metrics;
    return Status::OK();
  });
  ASSERT_TRUE(batcher.Add(data).ok());
  ASSERT_TRUE(batcher.Finish().ok());
  uint64_t lines = std::count(data.begin(), data.end(), '\n');
  EXPECT_GT(lines, 20000u);
  EXPECT_EQ(rows, lines);
  EXPECT_EQ(metrics, 10 * lines);
}

}  // namespace
}  // namespace gnomon::bench
