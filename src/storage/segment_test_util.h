// Test helpers for segment files: building SortedSeries column by column (std::nullopt = NULL),
// reading a series back through SegmentReader into one comparable form, and the small fixture
// segment shared by the golden-bytes and corruption tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "src/storage/segment_reader.h"
#include "src/storage/segment_writer.h"

namespace gnomon::storage::testing {

// Every field of two statistics equal (doubles by bit pattern, so NaN and -0.0 compare too).
inline void ExpectSameStats(const ColumnStats& a, const ColumnStats& b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.imin, b.imin);
  EXPECT_EQ(a.imax, b.imax);
  EXPECT_EQ(a.isum, b.isum);
  EXPECT_EQ(a.isum_exact, b.isum_exact);
  EXPECT_EQ(a.has_numeric, b.has_numeric);
  EXPECT_EQ(a.has_head, b.has_head);
  EXPECT_EQ(a.head_isum, b.head_isum);
  EXPECT_EQ(std::memcmp(&a.min, &b.min, 8), 0);
  EXPECT_EQ(std::memcmp(&a.max, &b.max, 8), 0);
  EXPECT_EQ(std::memcmp(&a.sum, &b.sum, 8), 0);
}

inline uint64_t Bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
inline double Double(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

// A memtable-style ColumnBuffer: bits/strings one per row (0 / "" where null), validity only when
// some row is null — the invariants SegmentWriter expects.
template <typename T>
ColumnBuffer MakeColumn(ValueType type, const std::vector<std::optional<T>>& values) {
  ColumnBuffer col;
  col.type = type;
  bool any_null = false;
  for (const auto& v : values) any_null |= !v.has_value();
  for (const auto& v : values) {
    if (any_null) col.validity.push_back(v.has_value() ? 1 : 0);
    col.null_count += v.has_value() ? 0 : 1;
    if constexpr (std::is_same_v<T, std::string>) {
      col.strings.push_back(v.value_or(""));
    } else if constexpr (std::is_same_v<T, double>) {
      col.bits.push_back(v ? Bits(*v) : 0);
    } else if constexpr (std::is_same_v<T, bool>) {
      col.bits.push_back(v && *v ? 1 : 0);
    } else {
      col.bits.push_back(v ? static_cast<uint64_t>(*v) : 0);
    }
  }
  return col;
}
inline ColumnBuffer Floats(const std::vector<std::optional<double>>& v) {
  return MakeColumn(ValueType::kFloat64, v);
}
inline ColumnBuffer Ints(const std::vector<std::optional<int64_t>>& v) {
  return MakeColumn(ValueType::kInt64, v);
}
inline ColumnBuffer UInts(const std::vector<std::optional<uint64_t>>& v) {
  return MakeColumn(ValueType::kUInt64, v);
}
inline ColumnBuffer Bools(const std::vector<std::optional<bool>>& v) {
  return MakeColumn(ValueType::kBool, v);
}
inline ColumnBuffer Strings(const std::vector<std::optional<std::string>>& v) {
  return MakeColumn(ValueType::kString, v);
}

// One column in a form that compares equal exactly when two columns hold the same rows: one
// entry per row everywhere, 0 / "" in null rows, floats as bit patterns (NaN payloads, -0.0).
struct NormalColumn {
  std::vector<uint8_t> valid;
  std::vector<uint64_t> bits;
  std::vector<std::string> strings;
  friend bool operator==(const NormalColumn&, const NormalColumn&) = default;
};

// `rows` rows of `col` (a kNull column reads as all-null).
inline NormalColumn Normalize(const ColumnBuffer& col, size_t rows) {
  NormalColumn n;
  for (size_t r = 0; r < rows; ++r) {
    bool valid = col.type != ValueType::kNull && (col.validity.empty() || col.validity[r] != 0);
    n.valid.push_back(valid ? 1 : 0);
    if (col.type == ValueType::kString) {
      n.strings.push_back(valid ? col.strings[r] : "");
    } else {
      n.bits.push_back(valid ? col.bits[r] : 0);
    }
  }
  if (col.type == ValueType::kString) n.bits.clear();
  return n;
}

// Appends the rows of a decoded column to *n.
inline void AppendDecoded(const DecodedColumn& d, size_t rows, NormalColumn* n) {
  for (size_t r = 0; r < rows; ++r) {
    bool valid = d.validity.empty() || d.validity[r] != 0;
    n->valid.push_back(valid ? 1 : 0);
    switch (d.type) {
      case ValueType::kFloat64: n->bits.push_back(valid ? Bits(d.f64[r]) : 0); break;
      case ValueType::kInt64: n->bits.push_back(valid ? static_cast<uint64_t>(d.i64[r]) : 0); break;
      case ValueType::kUInt64: n->bits.push_back(valid ? d.u64[r] : 0); break;
      case ValueType::kBool: n->bits.push_back(valid ? d.b[r] : 0); break;
      case ValueType::kString: n->strings.emplace_back(valid ? d.str[r] : ""); break;
      default: ADD_FAILURE() << "decoded column without a type"; return;
    }
  }
}

// Every row of series `meta`, group by group, through ReadTimes/ReadColumn.
inline Status ReadBack(const SegmentReader& reader, const SeriesMeta& meta,
                       std::vector<int64_t>* times, std::vector<NormalColumn>* columns) {
  times->clear();
  columns->assign(reader.index().columns.size(), NormalColumn{});
  std::vector<int64_t> group_times;
  DecodedColumn decoded;
  for (uint32_t g = 0; g < meta.num_groups; ++g) {
    const RowGroupMeta group = reader.group(meta, g);
    GNOMON_RETURN_IF_ERROR(reader.ReadTimes(group, &group_times));
    times->insert(times->end(), group_times.begin(), group_times.end());
    for (size_t c = 0; c < columns->size(); ++c) {
      GNOMON_RETURN_IF_ERROR(reader.ReadColumn(group, c, &decoded));
      if (decoded.type != reader.index().columns[c].type) {
        return Status::Internal("decoded column has the wrong type");
      }
      AppendDecoded(decoded, group.rows, &(*columns)[c]);
    }
  }
  return Status::OK();
}

// Reads every block of every series; the first failure.
inline Status ReadEverything(const SegmentReader& reader) {
  std::vector<int64_t> times;
  std::vector<NormalColumn> columns;
  std::vector<SliceInfo> slices;
  std::vector<ColumnStats> stats;
  for (const SeriesMeta& meta : reader.index().series) {
    GNOMON_RETURN_IF_ERROR(ReadBack(reader, meta, &times, &columns));
    for (uint32_t g = 0; g < meta.num_groups; ++g) {
      const RowGroupMeta group = reader.group(meta, g);
      GNOMON_RETURN_IF_ERROR(reader.ReadSlices(group, &slices));
      for (size_t c = 0; c < reader.index().columns.size(); ++c) {
        GNOMON_RETURN_IF_ERROR(reader.ReadSliceStats(group, c, slices.size(), &stats));
      }
    }
  }
  return Status::OK();
}

// The fixture segment's schema and rows: two series (ids 3 and 9), every field type, NULLs in
// the first and last rows, an empty string, NaN and ±Inf, integer extremes, and for series 9 two
// row groups (kRowsPerGroup + 8 rows) of compressible values so the file stays a few KB.
// Deterministic: changing it changes the golden file (see testdata/README.md).
inline std::vector<SegmentColumn> FixtureColumns() {
  return {{"f", ValueType::kFloat64},
          {"i", ValueType::kInt64},
          {"u", ValueType::kUInt64},
          {"b", ValueType::kBool},
          {"s", ValueType::kString}};
}

// `version`: the format the fixture is for; from version 7 series 9 is 16,392 rows (its groups
// grew), before it 8,200.
inline std::vector<std::pair<SeriesId, SortedSeries>> FixtureSeries(uint32_t version = kSegmentVersion) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
  constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
  constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
  std::vector<std::pair<SeriesId, SortedSeries>> out;

  SortedSeries a;
  a.times = {-5000, -1, 0, 1, 1000000000, 1700000000000000000};
  a.columns = {
      Floats({1.5, kNaN, -0.0, kInf, -kInf, std::nullopt}),
      Ints({std::nullopt, kI64Min, kI64Max, 0, -1, 42}),
      UInts({0, kU64Max, 1, std::nullopt, 7, 1ull << 63}),
      Bools({true, false, std::nullopt, true, true, false}),
      Strings({"", "héllo wörld", std::nullopt, std::string("nul\0byte", 8), "x", ""}),
  };
  out.emplace_back(3, std::move(a));

  SortedSeries b;
  const uint32_t group_rows = version >= 7 ? kRowsPerGroup : 8192;
  const size_t n = group_rows + 8;
  std::vector<std::optional<double>> f;
  std::vector<std::optional<int64_t>> i;
  std::vector<std::optional<bool>> bo;
  std::vector<std::optional<std::string>> s;
  for (size_t r = 0; r < n; ++r) {
    b.times.push_back(1600000000000000000 + static_cast<int64_t>(r) * 10000000000);
    f.push_back(r == 0 ? std::nullopt : std::optional<double>(0.25));
    i.push_back(static_cast<int64_t>(r));
    // Only the first group has bools: the second group's chunk is absent.
    bo.push_back(r < group_rows ? std::optional<bool>(r % 2 == 0) : std::nullopt);
    s.push_back(r + 1 == n ? std::nullopt : std::optional<std::string>(r % 3 ? "up" : "down"));
  }
  b.columns = {Floats(f), Ints(i), ColumnBuffer{}, Bools(bo), Strings(s)};  // "u" never written
  out.emplace_back(9, std::move(b));
  return out;
}

// Writes the fixture segment to `path`.
inline Status WriteFixtureSegment(port::Env* env, const std::string& path) {
  SegmentWriter writer(env, path, "fixture", FixtureColumns());
  GNOMON_RETURN_IF_ERROR(writer.Open());
  for (const auto& [id, data] : FixtureSeries()) GNOMON_RETURN_IF_ERROR(writer.AddSeries(id, data));
  return writer.Finish(nullptr);
}

}  // namespace gnomon::storage::testing
