#include "src/storage/slice_stats_codec.h"

#include <algorithm>

#include "src/base/coding.h"
#include "src/encoding/block_codec.h"
#include "src/storage/segment_writer.h"

namespace gnomon::storage {
namespace {

// The block's first byte (version 6 on): how the slices are laid out.
enum Form : uint8_t {
  kRecords = 0,        // one EncodeColumnStats record per slice, as before version 6
  kIntColumns = 1,     // int64 with exact sums: counts, minimums, ranges, sum and head residuals
  kDoubleColumns = 2,  // float64, uint64 and bool: counts, then minimums, maximums, sums as floats
};

// Arithmetic is modulo 2^64 on both sides, so a residual is exact whatever the values: it is only
// small (cheap to store) when the prediction is good, as it is for sensor-like data.
uint64_t SumPrediction(uint64_t count, uint64_t min, uint64_t range) { return count * min + count * range / 2; }
uint64_t HeadPrediction(int64_t sum) { return static_cast<uint64_t>(sum / 2); }
int64_t AsSigned(uint64_t v) { return static_cast<int64_t>(v); }
uint64_t AsUnsigned(int64_t v) { return static_cast<uint64_t>(v); }

void PutInts(const std::vector<int64_t>& values, std::string* scratch, std::string* out) {
  scratch->clear();
  encoding::EncodeInt64s(values, scratch);
  PutLengthPrefixed(out, *scratch);
}
void PutDoubles(const std::vector<double>& values, std::string* scratch, std::string* out) {
  scratch->clear();
  encoding::EncodeFloat64s(values, scratch);
  PutLengthPrefixed(out, *scratch);
}

void EncodeRecords(ValueType type, std::span<const ColumnStats> stats, std::string* out) {
  out->push_back(static_cast<char>(kRecords));
  for (const ColumnStats& s : stats) EncodeColumnStats(type, s, out);
}

// False (writing nothing) when some slice's sum is not exact.
bool EncodeIntColumns(std::span<const ColumnStats> stats, std::string* out) {
  std::vector<int64_t> counts, mins, ranges, sums, heads;
  std::vector<uint8_t> has_head;
  for (const ColumnStats& s : stats) {
    if (!s.isum_exact) return false;
    const uint64_t range = AsUnsigned(s.imax) - AsUnsigned(s.imin);
    counts.push_back(s.count);
    mins.push_back(s.imin);
    ranges.push_back(AsSigned(range));
    sums.push_back(AsSigned(AsUnsigned(s.isum) - SumPrediction(s.count, AsUnsigned(s.imin), range)));
    has_head.push_back(s.has_head ? 1 : 0);
    if (s.has_head) heads.push_back(AsSigned(AsUnsigned(s.head_isum) - HeadPrediction(s.isum)));
  }
  std::string scratch;
  out->push_back(static_cast<char>(kIntColumns));
  PutInts(counts, &scratch, out);
  PutInts(mins, &scratch, out);
  PutInts(ranges, &scratch, out);
  PutInts(sums, &scratch, out);
  scratch.clear();
  encoding::EncodeBools(has_head, &scratch);
  PutLengthPrefixed(out, scratch);
  if (!heads.empty()) PutInts(heads, &scratch, out);
  return true;
}

void EncodeDoubleColumns(std::span<const ColumnStats> stats, std::string* out) {
  std::vector<int64_t> counts;
  std::vector<double> mins, maxs, sums;
  for (const ColumnStats& s : stats) {
    counts.push_back(s.count);
    mins.push_back(s.min);
    maxs.push_back(s.max);
    sums.push_back(s.sum);
  }
  std::string scratch;
  out->push_back(static_cast<char>(kDoubleColumns));
  PutInts(counts, &scratch, out);
  PutDoubles(mins, &scratch, out);
  PutDoubles(maxs, &scratch, out);
  PutDoubles(sums, &scratch, out);
}

Status BadSliceStats(std::string_view what) { return Status::Corruption("slice statistics: " + std::string(what)); }

// The next length-prefixed nested block of `in`, decoded, holding exactly `n` values.
template <typename T, typename Decode>
Status GetNested(std::string_view* in, size_t n, Decode decode, std::vector<T>* out, std::string_view what) {
  std::string_view block;
  if (!GetLengthPrefixed(in, &block)) return BadSliceStats(std::string(what) + " truncated");
  GNOMON_RETURN_IF_ERROR(decode(block, out));
  if (out->size() != n) return BadSliceStats(std::string(what) + " hold the wrong number of slices");
  return Status::OK();
}
Status GetInts(std::string_view* in, size_t n, std::vector<int64_t>* out, std::string_view what) {
  return GetNested(in, n, encoding::DecodeInt64s, out, what);
}

Status DecodeRecords(ValueType type, std::string_view block, size_t n, size_t needed, std::vector<ColumnStats>* out) {
  const size_t decode = std::min(needed, n);
  for (size_t i = 0; i < decode; ++i) {
    if (!DecodeColumnStats(type, &block, &(*out)[i])) return BadSliceStats("bad record " + std::to_string(i));
  }
  if (decode == n && !block.empty()) return BadSliceStats("trailing bytes");
  return Status::OK();
}

Status DecodeIntColumns(std::string_view in, size_t n, std::vector<ColumnStats>* out) {
  std::vector<int64_t> counts, mins, ranges, sums, heads;
  std::vector<uint8_t> has_head;
  GNOMON_RETURN_IF_ERROR(GetInts(&in, n, &counts, "counts"));
  GNOMON_RETURN_IF_ERROR(GetInts(&in, n, &mins, "minimums"));
  GNOMON_RETURN_IF_ERROR(GetInts(&in, n, &ranges, "ranges"));
  GNOMON_RETURN_IF_ERROR(GetInts(&in, n, &sums, "sums"));
  GNOMON_RETURN_IF_ERROR(GetNested(&in, n, encoding::DecodeBools, &has_head, "head flags"));
  const size_t num_heads = static_cast<size_t>(std::count(has_head.begin(), has_head.end(), 1));
  if (num_heads > 0) GNOMON_RETURN_IF_ERROR(GetInts(&in, num_heads, &heads, "head sums"));
  if (!in.empty()) return BadSliceStats("trailing bytes");
  size_t next_head = 0;
  for (size_t i = 0; i < n; ++i) {
    if (counts[i] < 0 || counts[i] > UINT32_MAX) return BadSliceStats("count out of range");
    ColumnStats& s = (*out)[i];
    s.count = static_cast<uint32_t>(counts[i]);
    s.imin = mins[i];
    s.imax = AsSigned(AsUnsigned(mins[i]) + AsUnsigned(ranges[i]));
    s.isum = AsSigned(AsUnsigned(sums[i]) + SumPrediction(s.count, AsUnsigned(s.imin), AsUnsigned(ranges[i])));
    s.isum_exact = true;
    s.min = static_cast<double>(s.imin);
    s.max = static_cast<double>(s.imax);
    s.sum = static_cast<double>(s.isum);
    s.has_numeric = true;
    if (has_head[i] != 0) {
      s.has_head = true;
      s.head_isum = AsSigned(AsUnsigned(heads[next_head++]) + HeadPrediction(s.isum));
    }
  }
  return Status::OK();
}

Status DecodeDoubleColumns(std::string_view in, size_t n, std::vector<ColumnStats>* out) {
  std::vector<int64_t> counts;
  std::vector<double> mins, maxs, sums;
  GNOMON_RETURN_IF_ERROR(GetInts(&in, n, &counts, "counts"));
  GNOMON_RETURN_IF_ERROR(GetNested(&in, n, encoding::DecodeFloat64s, &mins, "minimums"));
  GNOMON_RETURN_IF_ERROR(GetNested(&in, n, encoding::DecodeFloat64s, &maxs, "maximums"));
  GNOMON_RETURN_IF_ERROR(GetNested(&in, n, encoding::DecodeFloat64s, &sums, "sums"));
  if (!in.empty()) return BadSliceStats("trailing bytes");
  for (size_t i = 0; i < n; ++i) {
    if (counts[i] < 0 || counts[i] > UINT32_MAX) return BadSliceStats("count out of range");
    ColumnStats& s = (*out)[i];
    s.count = static_cast<uint32_t>(counts[i]);
    s.min = mins[i];
    s.max = maxs[i];
    s.sum = sums[i];
    s.has_numeric = true;
  }
  return Status::OK();
}

}  // namespace

void EncodeSliceStats(ValueType type, std::span<const ColumnStats> stats, std::string* out) {
  std::string records, columns;
  EncodeRecords(type, stats, &records);
  bool have_columns = false;
  if (type == ValueType::kInt64) {
    have_columns = EncodeIntColumns(stats, &columns);
  } else if (type == ValueType::kFloat64 || type == ValueType::kUInt64 || type == ValueType::kBool) {
    EncodeDoubleColumns(stats, &columns);
    have_columns = true;
  }
  out->append(have_columns && columns.size() < records.size() ? columns : records);
}

Status DecodeSliceStats(ValueType type, uint32_t version, std::string_view block, size_t n, size_t needed,
                        std::vector<ColumnStats>* out) {
  out->assign(n, ColumnStats{});
  if (version < 6) return DecodeRecords(type, block, n, needed, out);
  if (block.empty()) return BadSliceStats("empty block");
  const auto form = static_cast<uint8_t>(block[0]);
  block.remove_prefix(1);
  switch (form) {
    case kRecords: return DecodeRecords(type, block, n, needed, out);
    case kIntColumns:
      if (type != ValueType::kInt64) return BadSliceStats("integer form for a column of another type");
      return DecodeIntColumns(block, n, out);
    case kDoubleColumns:
      if (type != ValueType::kFloat64 && type != ValueType::kUInt64 && type != ValueType::kBool) {
        return BadSliceStats("float form for a column of another type");
      }
      return DecodeDoubleColumns(block, n, out);
    default: return BadSliceStats("unknown form " + std::to_string(form));
  }
}

}  // namespace gnomon::storage
