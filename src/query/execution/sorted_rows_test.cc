// SortedRows against a plain reference sort of the same rows: chunks with a series' tags as
// constant vectors (also NULL ones), a time key, descending keys, NULLs first and last, a chunk
// whose column type differs from the first's, top-n, and stability.
#include "src/query/execution/sorted_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <tuple>

namespace gnomon::query {
namespace {

// Sends prepared chunks one per Next.
class ChunkSource final : public Operator {
 public:
  ChunkSource(std::vector<ResultColumn> schema, std::vector<Chunk> chunks) : chunks_(std::move(chunks)) {
    schema_ = std::move(schema);
  }
  std::string Describe() const override { return "ChunkSource"; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override {
    if (next_ < chunks_.size()) *chunk = std::move(chunks_[next_++]);
    *done = next_ >= chunks_.size();
    return Status::OK();
  }

 private:
  std::vector<Chunk> chunks_;
  size_t next_ = 0;
};

// One row as the reference sees it: (host or NULL, time, value, input position).
struct Row {
  std::optional<std::string> host;
  int64_t time;
  std::optional<double> value;
  int position;
};

Vector ConstantHost(const std::optional<std::string>& host) {
  Vector v;
  InitVector(&v, ValueType::kString);
  v.constant = true;
  v.str.push_back(host.value_or(""));
  if (!host) v.validity.assign(1, 0);
  return v;
}

const std::vector<ResultColumn> kSchema = {
    {"host", ValueType::kString}, {"time", ValueType::kTimestamp}, {"value", ValueType::kFloat64}};

// Series chunks (constant host) and, when `mixed`, every third a chunk of several hosts spelled
// out (without, the host key ranks the chunks).
std::vector<Chunk> MakeChunks(std::vector<Row>* rows, bool mixed) {
  std::mt19937 rng(7);
  std::vector<Chunk> chunks;
  int position = 0;
  for (int c = 0; c < 30; ++c) {
    Chunk chunk;
    chunk.columns.resize(3);
    for (size_t i = 0; i < 3; ++i) InitVector(&chunk.columns[i], kSchema[i].type);
    const bool series = !mixed || c % 3 != 2;
    std::optional<std::string> host;
    if (c % 7 != 3) host = "host_" + std::to_string(rng() % 6);
    if (series) chunk.columns[0] = ConstantHost(host);
    chunk.rows = 1 + rng() % 40;
    for (size_t r = 0; r < chunk.rows; ++r) {
      Row row{host, static_cast<int64_t>(rng() % 20), std::nullopt, position++};
      if (!series) {
        row.host = rng() % 5 == 0 ? std::nullopt : std::optional<std::string>("host_" + std::to_string(rng() % 6));
        if (row.host) AppendValue(&chunk.columns[0], Value::String(*row.host));
        else AppendNull(&chunk.columns[0]);
      }
      AppendValue(&chunk.columns[1], Value::Timestamp(row.time));
      if (rng() % 4 == 0) {
        AppendNull(&chunk.columns[2]);
      } else {
        row.value = static_cast<double>(rng() % 10);
        AppendValue(&chunk.columns[2], Value::Float(*row.value));
      }
      rows->push_back(row);
    }
    chunks.push_back(std::move(chunk));
  }
  return chunks;
}

std::vector<Row> Sorted(const std::vector<SortKey>& keys, int64_t top_n, bool mixed) {
  std::vector<Row> rows;
  ChunkSource source(kSchema, MakeChunks(&rows, mixed));
  ExecutionContext ctx;
  SortedRows sorted;
  EXPECT_TRUE(sorted.Load(&source, &ctx).ok());
  sorted.Sort(keys, top_n);
  std::vector<Row> out;
  for (size_t begin = 0; begin < sorted.size(); begin += 50) {
    Chunk chunk;
    sorted.Emit(begin, std::min(sorted.size(), begin + 50), kSchema, &chunk);
    for (size_t r = 0; r < chunk.rows; ++r) {
      EXPECT_FALSE(chunk.columns[0].constant);
      Row row{std::nullopt, chunk.columns[1].i64[r], std::nullopt, -1};
      if (!chunk.columns[0].IsNull(r)) row.host = chunk.columns[0].str[r];
      if (!chunk.columns[2].IsNull(r)) row.value = chunk.columns[2].f64[r];
      out.push_back(row);
    }
  }
  return out;
}

// The reference: a stable sort on the same keys over the rows as generated.
std::vector<Row> Reference(const std::vector<SortKey>& keys, int64_t top_n, bool mixed) {
  std::vector<Row> rows;
  MakeChunks(&rows, mixed);
  auto compare = [&](const Row& a, const Row& b, const SortKey& k) {
    auto three_way = [&](const auto& x, const auto& y) -> int {
      if (!x || !y) return !x && !y ? 0 : (!x == k.nulls_first ? -1 : 1);
      const int r = *x < *y ? -1 : (*y < *x ? 1 : 0);
      return k.descending ? -r : r;
    };
    if (k.column == 0) return three_way(a.host, b.host);
    if (k.column == 1) return three_way(std::optional<int64_t>(a.time), std::optional<int64_t>(b.time));
    return three_way(a.value, b.value);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    for (const SortKey& k : keys) {
      if (int r = compare(a, b, k); r != 0) return r < 0;
    }
    return false;
  });
  if (top_n >= 0 && static_cast<size_t>(top_n) < rows.size()) rows.resize(top_n);
  return rows;
}

void ExpectSameOrder(const std::vector<SortKey>& keys, int64_t top_n = -1) {
  for (bool mixed : {false, true}) {
    const std::vector<Row> got = Sorted(keys, top_n, mixed), want = Reference(keys, top_n, mixed);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(std::tie(got[i].host, got[i].time, got[i].value), std::tie(want[i].host, want[i].time, want[i].value))
          << "row " << i << (mixed ? " (mixed chunks)" : " (series chunks)");
    }
  }
}

TEST(SortedRowsTest, TimeThenSeriesTagAsInfluxqlPointOrder) { ExpectSameOrder({{1}, {0}}); }
TEST(SortedRowsTest, TimeDescendingThenTagNullsFirst) { ExpectSameOrder({{1, true}, {0, false, true}}); }
TEST(SortedRowsTest, TagFirstThenTimeThenValue) { ExpectSameOrder({{0}, {1}, {2, true}}); }
TEST(SortedRowsTest, ValueWithNullsLastThenTime) { ExpectSameOrder({{2}, {1}}); }
TEST(SortedRowsTest, TopNKeepsTheFirstRows) { ExpectSameOrder({{1}, {0}, {2}}, 17); }
TEST(SortedRowsTest, NoKeysKeepsInputOrder) { ExpectSameOrder({}); }

// Input already in order (one series, ascending times) is kept as it is, top-n included; a
// descending key over it still reverses it.
TEST(SortedRowsTest, OrderedInputStaysOrdered) {
  for (bool descending : {false, true}) {
    for (int64_t top_n : {int64_t{-1}, int64_t{10}}) {
      Chunk chunk;
      chunk.rows = 100;
      chunk.columns.resize(1);
      InitVector(&chunk.columns[0], ValueType::kTimestamp);
      for (int64_t t = 0; t < 100; ++t) AppendValue(&chunk.columns[0], Value::Timestamp(t));
      std::vector<Chunk> chunks;
      chunks.push_back(std::move(chunk));
      const std::vector<ResultColumn> schema = {{"time", ValueType::kTimestamp}};
      ChunkSource source(schema, std::move(chunks));
      ExecutionContext ctx;
      SortedRows sorted;
      ASSERT_TRUE(sorted.Load(&source, &ctx).ok());
      sorted.Sort({{0, descending}}, top_n);
      Chunk out;
      sorted.Emit(0, sorted.size(), schema, &out);
      ASSERT_EQ(out.rows, top_n < 0 ? 100u : 10u);
      for (size_t i = 0; i < out.rows; ++i) {
        EXPECT_EQ(out.columns[0].i64[i], descending ? 99 - static_cast<int64_t>(i) : static_cast<int64_t>(i));
      }
    }
  }
}

TEST(SortedRowsTest, ChunksOfAnotherColumnTypeAreConformed) {
  // The first chunk's value column is all-NULL-typed; the second's is float: both come out as
  // the first chunk's type (the rows of the second become NULL), as DrainAll concatenates them.
  Chunk a, b;
  a.rows = 2;
  a.columns.resize(1);
  InitVector(&a.columns[0], ValueType::kNull);
  b.rows = 1;
  b.columns.resize(1);
  InitVector(&b.columns[0], ValueType::kFloat64);
  AppendValue(&b.columns[0], Value::Float(1.5));
  std::vector<Chunk> chunks;
  chunks.push_back(std::move(a));
  chunks.push_back(std::move(b));
  const std::vector<ResultColumn> schema = {{"v", ValueType::kNull}};
  ChunkSource source(schema, std::move(chunks));
  ExecutionContext ctx;
  SortedRows sorted;
  ASSERT_TRUE(sorted.Load(&source, &ctx).ok());
  sorted.Sort({{0}}, -1);
  Chunk out;
  sorted.Emit(0, sorted.size(), schema, &out);
  ASSERT_EQ(out.rows, 3u);
  EXPECT_EQ(out.columns[0].type, ValueType::kNull);
}

TEST(SortedRowsTest, MemoryLimitStopsTheLoad) {
  std::vector<Row> rows;
  ChunkSource source(kSchema, MakeChunks(&rows, true));
  ExecutionContext ctx;
  ctx.memory_limit = 1000;
  SortedRows sorted;
  EXPECT_EQ(sorted.Load(&source, &ctx).code(), Status::Code::kResourceExhausted);
}

}  // namespace
}  // namespace gnomon::query
