// ResultWriter renders exactly what a plain cell-by-cell writer does (the reference below, the
// writer's previous form), for JSON and CSV, every epoch unit, NULLs, strings needing escapes,
// non-finite floats and extreme timestamps; floats round-trip.
#include "src/server/api/result_writer.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>

#include "src/base/task_pool.h"
#include "src/base/time_util.h"
#include "src/server/http/json_writer.h"

namespace gnomon::server::api {
namespace {

using query::ResultChunk;
using query::ResultColumn;
using query::ResultVector;

// One cell the straightforward way.
void ReferenceCell(const ResultVector& v, size_t row, bool json, EpochUnit epoch, std::string* out) {
  if (v.type == ValueType::kNull || v.IsNull(row)) {
    if (json) out->append("null");
    return;
  }
  auto integer = [&](auto x) {
    char buf[32];
    out->append(buf, std::to_chars(buf, buf + sizeof(buf), x).ptr - buf);
  };
  switch (v.type) {
    case ValueType::kInt64: integer(v.i64[row]); break;
    case ValueType::kUInt64: integer(v.u64[row]); break;
    case ValueType::kFloat64: {
      double d = v.f64[row];
      if (!std::isfinite(d)) {
        if (json) out->append("null");
        else out->append(std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"));
      } else {
        integer(d);
      }
      break;
    }
    case ValueType::kBool: out->append(v.b[row] ? "true" : "false"); break;
    case ValueType::kString: {
      const std::string& s = v.str[row];
      if (json) {
        http::AppendJsonString(out, s);
      } else if (s.find_first_of(",\"\r\n") == std::string::npos) {
        out->append(s);
      } else {
        out->push_back('"');
        for (char c : s) {
          if (c == '"') out->push_back('"');
          out->push_back(c);
        }
        out->push_back('"');
      }
      break;
    }
    case ValueType::kTimestamp: {
      int64_t t = v.i64[row];
      switch (epoch) {
        case EpochUnit::kNone:
          if (json) out->push_back('"');
          AppendRfc3339(out, t);
          if (json) out->push_back('"');
          break;
        case EpochUnit::kNanosecond: integer(t); break;
        case EpochUnit::kMicrosecond: integer(FloorDiv(t, kNanosPerMicro)); break;
        case EpochUnit::kMillisecond: integer(FloorDiv(t, kNanosPerMilli)); break;
        case EpochUnit::kSecond: integer(FloorDiv(t, kNanosPerSecond)); break;
      }
      break;
    }
    default: break;
  }
}

std::string ReferenceRows(const ResultChunk& chunk, bool json, EpochUnit epoch, bool first) {
  std::string out;
  for (size_t r = 0; r < chunk.rows; ++r) {
    if (json) {
      if (!first || r > 0) out.push_back(',');
      out.push_back('[');
    }
    for (size_t c = 0; c < chunk.columns.size(); ++c) {
      if (c) out.push_back(',');
      ReferenceCell(chunk.columns[c], r, json, epoch, &out);
    }
    out.append(json ? "]" : "\r\n");
  }
  return out;
}

std::string RandomString(std::mt19937_64& rng) {
  static const std::vector<std::string> pieces = {
      "host_", "a", "Z9", "\"", "\\", "\n", "\r", "\t", ",", " ", std::string(1, '\0'), "\x01", "\x1f",
      "\x7f", "ü", "€", "😀", "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "/", "<>"};
  std::string s;
  const int n = static_cast<int>(rng() % 6);
  for (int i = 0; i < n; ++i) s += pieces[rng() % pieces.size()];
  return s;
}

double RandomDouble(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: {
      uint64_t bits = rng();
      double d;
      std::memcpy(&d, &bits, 8);
      return d;  // anything, NaNs and subnormals included
    }
    case 1: return static_cast<double>(static_cast<int64_t>(rng() % 2000) - 1000) / 8;
    case 2: return std::numeric_limits<double>::infinity() * ((rng() & 1) ? 1 : -1);
    case 3: return -0.0;
    case 4: return 1e300 * static_cast<double>(rng() % 100);
    default: return static_cast<double>(rng() % 1000000) / 1000.0;
  }
}

int64_t RandomTime(std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0: return static_cast<int64_t>(rng());  // far past and future years
    case 1: return 1686441600000000000LL + static_cast<int64_t>(rng() % 86400) * 1000000000LL;
    case 2: return 1686441600000000000LL + static_cast<int64_t>(rng() % 1000000000000LL);
    case 3: return -static_cast<int64_t>(rng() % 100000000000000LL);
    default: return (rng() & 1) ? INT64_MIN : INT64_MAX;
  }
}

ResultChunk RandomChunk(std::mt19937_64& rng, const std::vector<ResultColumn>& columns, size_t rows) {
  ResultChunk chunk;
  chunk.rows = rows;
  for (const ResultColumn& c : columns) {
    ResultVector v;
    v.type = c.type;
    const bool nulls = rng() % 2 == 0;
    for (size_t r = 0; r < rows; ++r) {
      switch (c.type) {
        case ValueType::kInt64:
          // Small values (around the two-digit fast path) and anything.
          v.i64.push_back(rng() % 2 ? static_cast<int64_t>(rng() % 130) - 15 : static_cast<int64_t>(rng()));
          break;
        case ValueType::kTimestamp: v.i64.push_back(RandomTime(rng)); break;
        case ValueType::kUInt64: v.u64.push_back(rng() % 2 ? rng() % 130 : rng()); break;
        case ValueType::kFloat64: v.f64.push_back(RandomDouble(rng)); break;
        case ValueType::kBool: v.b.push_back(rng() & 1); break;
        case ValueType::kString: v.str.push_back(RandomString(rng)); break;
        default: break;
      }
      if (nulls || c.type == ValueType::kNull) v.validity.push_back(rng() % 4 != 0 && c.type != ValueType::kNull);
    }
    chunk.columns.push_back(std::move(v));
  }
  return chunk;
}

TEST(ResultWriterTest, MatchesCellByCellRendering) {
  std::mt19937_64 rng(7);
  const std::vector<ResultColumn> columns = {
      {"time", ValueType::kTimestamp}, {"s", ValueType::kString}, {"i", ValueType::kInt64},
      {"f", ValueType::kFloat64},      {"u", ValueType::kUInt64}, {"b", ValueType::kBool},
      {"n", ValueType::kNull},         {"s2", ValueType::kString}};
  TaskPool two_halves(1);
  for (TaskPool* pool : {static_cast<TaskPool*>(nullptr), &two_halves}) {
    for (ResultFormat format : {ResultFormat::kJson, ResultFormat::kCsv}) {
      for (EpochUnit epoch : {EpochUnit::kNone, EpochUnit::kNanosecond, EpochUnit::kMicrosecond,
                              EpochUnit::kMillisecond, EpochUnit::kSecond}) {
        const bool json = format == ResultFormat::kJson;
        std::string out;
        ResultWriter writer(format, epoch, &out, pool);
        ASSERT_TRUE(writer.Begin(columns).ok());
        const size_t header = out.size();
        std::string expected;
        // Chunk sizes around the writer's internal block size, and chunks large enough to render
        // in two halves at once (1,024 rows and up, odd and even, first chunk and later ones).
        for (size_t rows : {0, 1, 255, 256, 257, 700, 3, 1024, 2049, 1500}) {
          ResultChunk chunk = RandomChunk(rng, columns, rows);
          expected += ReferenceRows(chunk, json, epoch, writer.rows() == 0);
          ASSERT_TRUE(writer.Chunk(chunk).ok());
        }
        EXPECT_EQ(out.substr(header), expected);
        EXPECT_EQ(writer.rows(), 0u + 1 + 255 + 256 + 257 + 700 + 3 + 1024 + 2049 + 1500);
      }
    }
  }
}

TEST(ResultWriterTest, FirstChunkLargeEnoughToRenderInHalves) {
  // The helper's half must not start with a separator when it follows the very first rows.
  std::mt19937_64 rng(11);
  const std::vector<ResultColumn> columns = {{"time", ValueType::kTimestamp}, {"i", ValueType::kInt64}};
  std::string out;
  TaskPool pool(1);
  ResultWriter writer(ResultFormat::kJson, EpochUnit::kNone, &out, &pool);
  ASSERT_TRUE(writer.Begin(columns).ok());
  const size_t header = out.size();
  ResultChunk chunk = RandomChunk(rng, columns, 3000);
  ASSERT_TRUE(writer.Chunk(chunk).ok());
  EXPECT_EQ(out.substr(header), ReferenceRows(chunk, true, EpochUnit::kNone, true));
}

TEST(ResultWriterTest, ConstantColumnsRenderAsRepeatedValues) {
  // A constant vector stores row 0's value once (NULL through one validity byte).
  std::mt19937_64 rng(5);
  const std::vector<ResultColumn> columns = {
      {"time", ValueType::kTimestamp}, {"host", ValueType::kString}, {"i", ValueType::kInt64},
      {"none", ValueType::kString}, {"quoted", ValueType::kString}};
  for (ResultFormat format : {ResultFormat::kJson, ResultFormat::kCsv}) {
    for (size_t rows : {1, 700, 2000}) {
      ResultChunk expanded = RandomChunk(rng, columns, rows);
      ResultChunk constant = expanded;
      const std::vector<std::pair<size_t, std::string>> values = {{1, "host_17"}, {3, ""}, {4, "a \"b\",\\"}};
      for (const auto& [c, value] : values) {
        const bool null = value.empty();
        expanded.columns[c].str.assign(rows, value);
        expanded.columns[c].validity.assign(null ? rows : 0, 0);
        constant.columns[c].str.assign(1, value);
        constant.columns[c].validity.assign(null ? 1 : 0, 0);
        constant.columns[c].constant = true;
      }
      std::string a, b;
      ResultWriter wa(format, EpochUnit::kNone, &a), wb(format, EpochUnit::kNone, &b);
      ASSERT_TRUE(wa.Begin(columns).ok() && wb.Begin(columns).ok());
      ASSERT_TRUE(wa.Chunk(expanded).ok() && wb.Chunk(constant).ok());
      ASSERT_TRUE(wa.Chunk(expanded).ok() && wb.Chunk(constant).ok());
      EXPECT_EQ(a, b) << rows;
      EXPECT_NE(a.find("host_17"), std::string::npos);
    }
  }
}

TEST(ResultWriterTest, EscapesFoundAtEveryPosition) {
  // The plain-string check works eight bytes at a time: a special byte anywhere must be seen.
  ResultChunk chunk;
  ResultVector v;
  v.type = ValueType::kString;
  for (const char* special : {"\"", "\\", "\n", "\x01", "\x1f", "\x7f", " ", "\xc3\xa9", "\xff", "~"}) {
    for (size_t len : {1, 7, 8, 9, 16, 23}) {
      for (size_t pos = 0; pos < len; ++pos) {
        std::string s(len, 'a');
        s.replace(pos, 1, special);
        v.str.push_back(s);
      }
    }
  }
  chunk.rows = v.str.size();
  chunk.columns.push_back(v);
  for (ResultFormat format : {ResultFormat::kJson, ResultFormat::kCsv}) {
    std::string out;
    ResultWriter writer(format, EpochUnit::kNone, &out);
    ASSERT_TRUE(writer.Begin({{"s", ValueType::kString}}).ok());
    const size_t header = out.size();
    ASSERT_TRUE(writer.Chunk(chunk).ok());
    EXPECT_EQ(out.substr(header), ReferenceRows(chunk, format == ResultFormat::kJson, EpochUnit::kNone, true));
  }
}

TEST(ResultWriterTest, StringsLargerThanTheScratchBuffer) {
  ResultChunk chunk;
  ResultVector a, b;
  a.type = b.type = ValueType::kString;
  for (size_t len : {10, 70000, 5, 300000, 65530, 1}) {
    a.str.push_back(std::string(len, 'x'));
    b.str.push_back(std::string(len / 3, '"'));  // every byte escaped
  }
  chunk.rows = a.str.size();
  chunk.columns = {a, b};
  for (ResultFormat format : {ResultFormat::kJson, ResultFormat::kCsv}) {
    std::string out;
    ResultWriter writer(format, EpochUnit::kNone, &out);
    ASSERT_TRUE(writer.Begin({{"a", ValueType::kString}, {"b", ValueType::kString}}).ok());
    const size_t header = out.size();
    ASSERT_TRUE(writer.Chunk(chunk).ok());
    EXPECT_EQ(out.substr(header), ReferenceRows(chunk, format == ResultFormat::kJson, EpochUnit::kNone, true));
  }
}

TEST(ResultWriterTest, FloatsRoundTrip) {
  std::mt19937_64 rng(11);
  ResultChunk chunk;
  chunk.rows = 5000;
  ResultVector v;
  v.type = ValueType::kFloat64;
  for (size_t i = 0; i < chunk.rows; ++i) {
    double d;
    do d = RandomDouble(rng); while (!std::isfinite(d));
    v.f64.push_back(d);
  }
  chunk.columns.push_back(v);
  std::string out;
  ResultWriter writer(ResultFormat::kCsv, EpochUnit::kNone, &out);
  ASSERT_TRUE(writer.Begin({{"f", ValueType::kFloat64}}).ok());
  ASSERT_TRUE(writer.Chunk(chunk).ok());
  size_t pos = out.find("\r\n") + 2;
  for (size_t i = 0; i < chunk.rows; ++i) {
    size_t end = out.find("\r\n", pos);
    double back = 0;
    auto r = std::from_chars(out.data() + pos, out.data() + end, back);
    ASSERT_EQ(r.ptr, out.data() + end);
    EXPECT_EQ(std::memcmp(&back, &v.f64[i], 8), 0) << out.substr(pos, end - pos);
    pos = end + 2;
  }
}

TEST(ResultWriterTest, Rfc3339WithCachedDayMatchesFormatter) {
  std::mt19937_64 rng(3);
  int64_t cached = INT64_MIN;
  char day[10];
  int64_t t = 1686441600000000000LL;
  for (int i = 0; i < 200000; ++i) {
    // Mostly nearby times (the cached day reused), sometimes anywhere.
    // (The step wraps at the int64 ends, which is fine: any time will do.)
    const uint64_t step = rng() % 20000000000ULL - 5000000000ULL;
    t = (i % 50 == 0) ? RandomTime(rng) : static_cast<int64_t>(static_cast<uint64_t>(t) + step);
    char buf[64];
    char* end = WriteRfc3339(buf, t, &cached, day);
    ASSERT_EQ(std::string(buf, end), FormatRfc3339(t)) << t;
  }
}

TEST(ResultWriterTest, EmptyResultAndEnd) {
  std::string out;
  ResultWriter writer(ResultFormat::kJson, EpochUnit::kNone, &out);
  ASSERT_TRUE(writer.Begin({{"a", ValueType::kString}}).ok());
  ASSERT_TRUE(writer.Chunk(ResultChunk{}).ok());
  query::QueryStats stats;
  stats.elapsed_ns = 1500000;
  ASSERT_TRUE(writer.End(stats).ok());
  EXPECT_EQ(out, R"({"columns":[{"name":"a","type":"string"}],"rows":[],"execution_time_ms":1.5})");
}

}  // namespace
}  // namespace gnomon::server::api
