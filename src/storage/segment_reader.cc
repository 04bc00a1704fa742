#include "src/storage/segment_reader.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <list>
#include <unordered_map>

#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/base/time_util.h"
#include "src/encoding/block_codec.h"
#include "src/storage/slice_stats_codec.h"
#include "src/storage/segment_writer.h"

namespace gnomon::storage {
namespace {

// Identifies a reader in the per-thread pack cache (addresses are reused, uids are not).
uint64_t NextReaderUid() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// Decoded pack columns, per thread, least recently used evicted past a byte budget: scans read
// series in id order, so the series of one pack come one after another and each pack column is
// decoded once, not once per series; a compaction reads each series from every input segment in
// turn, so it needs every input's current pack columns at once (12 inputs × 11 columns ≈ 10 MB).
struct PackKey {
  uint64_t reader;
  uint32_t pack;
  int column;  // -1: the time block
  bool operator==(const PackKey&) const = default;
};
struct PackKeyHash {
  size_t operator()(const PackKey& k) const {
    return std::hash<uint64_t>()(k.reader * 0x9E3779B97F4A7C15ull ^ (uint64_t{k.pack} << 8) ^
                                 static_cast<uint64_t>(k.column + 1));
  }
};
constexpr size_t kPackCacheBytes = 32 << 20;

size_t DecodedBytes(const DecodedColumn& c) {
  return c.i64.capacity() * 8 + c.f64.capacity() * 8 + c.u64.capacity() * 8 + c.b.capacity() +
         c.str.capacity() * sizeof(std::string_view) + c.arena.capacity() + c.validity.capacity();
}

class PackCache {
 public:
  const DecodedColumn* Find(const PackKey& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    lru_.splice(lru_.begin(), lru_, it->second);  // most recent first
    return &it->second->second;
  }
  // A fresh slot for `key` (absent), to decode into in place: a string column's views point
  // into its own arena, which must not move. Then Commit (or Drop, when decoding failed).
  DecodedColumn* Emplace(const PackKey& key) {
    lru_.emplace_front(key, DecodedColumn{});
    index_[key] = lru_.begin();
    return &lru_.front().second;
  }
  // Counts the newest slot's bytes and evicts the least recently used past the budget.
  void Commit() {
    bytes_ += DecodedBytes(lru_.front().second);
    while (bytes_ > kPackCacheBytes && lru_.size() > 1) {
      bytes_ -= DecodedBytes(lru_.back().second);
      index_.erase(lru_.back().first);
      lru_.pop_back();
    }
  }
  void Drop(const PackKey& key) {
    lru_.erase(index_.at(key));
    index_.erase(key);
  }

 private:
  std::list<std::pair<PackKey, DecodedColumn>> lru_;
  std::unordered_map<PackKey, std::list<std::pair<PackKey, DecodedColumn>>::iterator, PackKeyHash> index_;
  size_t bytes_ = 0;
};

PackCache& ThreadPackCache() {
  thread_local PackCache cache;
  return cache;
}

}  // namespace

Result<std::shared_ptr<SegmentReader>> SegmentReader::Open(port::Env* env, const std::string& path,
                                                           std::shared_ptr<CacheBudget> stats_budget) {
  GNOMON_ASSIGN_OR_RETURN(auto file, env->NewRandomAccessFile(path));
  std::shared_ptr<SegmentReader> reader(new SegmentReader(path, std::move(file)));
  const uint64_t size = reader->file_->Size();
  auto corrupt = [&](const std::string& what) {
    return Status::Corruption("segment " + path + ": " + what);
  };
  if (size < sizeof(kSegmentMagic) + kSegmentFooterSize) return corrupt("file too small");
  std::string scratch(kSegmentFooterSize, '\0');
  std::string_view footer;
  GNOMON_RETURN_IF_ERROR(
      reader->file_->Read(size - kSegmentFooterSize, kSegmentFooterSize, &footer, scratch.data()));
  std::string_view magic;
  std::string magic_scratch(sizeof(kSegmentMagic), '\0');
  GNOMON_RETURN_IF_ERROR(reader->file_->Read(0, sizeof(kSegmentMagic), &magic, magic_scratch.data()));
  if (std::memcmp(magic.data(), kSegmentMagic, sizeof(kSegmentMagic)) != 0) {
    return corrupt("bad magic");
  }
  const uint64_t index_offset = DecodeFixed64(footer.data());
  const uint64_t index_length = DecodeFixed64(footer.data() + 8);
  const uint32_t index_crc = DecodeFixed32(footer.data() + 16);
  const uint32_t version = DecodeFixed32(footer.data() + 20);
  const uint32_t footer_magic = DecodeFixed32(footer.data() + 24);
  const uint32_t footer_crc = DecodeFixed32(footer.data() + 28);
  if (footer_magic != kSegmentFooterMagic) return corrupt("bad footer magic");
  if (crc32c::Unmask(footer_crc) != crc32c::Value(footer.data(), 28)) {
    return corrupt("footer checksum mismatch at offset " + std::to_string(size - kSegmentFooterSize));
  }
  if (version < kOldestReadableSegmentVersion || version > kSegmentVersion) {
    return corrupt("unsupported version " + std::to_string(version));
  }
  if (index_offset < sizeof(kSegmentMagic) || index_offset > size - kSegmentFooterSize ||
      index_length != size - kSegmentFooterSize - index_offset) {
    return corrupt("index location out of bounds");
  }
  std::string index_scratch(index_length, '\0');
  std::string_view index_bytes;
  GNOMON_RETURN_IF_ERROR(
      reader->file_->Read(index_offset, index_length, &index_bytes, index_scratch.data()));
  if (crc32c::Unmask(index_crc) != crc32c::Value(index_bytes)) {
    return corrupt("index checksum mismatch at offset " + std::to_string(index_offset));
  }
  reader->version_ = version;
  Status s = DecodeSegmentIndex(index_bytes, &reader->index_, version);
  if (!s.ok()) return s.WithContext("segment " + path);
  // Every block must lie inside the data section, and match its checksum. Checksums are verified
  // here, once, rather than on every read: scans read the same blocks over and over (a query over
  // 4,000 series reads ~50,000 of them), and the file is immutable.
  auto in_data = [&](uint64_t off, uint64_t len) {
    return off >= sizeof(kSegmentMagic) && off <= index_offset && len <= index_offset - off;
  };
  auto verify = [&](uint64_t off, uint32_t len, uint32_t crc) -> Status {
    std::string_view block;
    GNOMON_RETURN_IF_ERROR(reader->file_->Read(off, len, &block, nullptr));
    if (crc32c::Unmask(crc) != crc32c::Value(block)) {
      return corrupt("block checksum mismatch at offset " + std::to_string(off));
    }
    return Status::OK();
  };
  for (const PackMeta& p : reader->index_.packs) {
    if (!in_data(p.time_offset, p.time_length)) return corrupt("pack time block out of bounds");
    GNOMON_RETURN_IF_ERROR(verify(p.time_offset, p.time_length, p.time_crc));
  }
  for (const RowGroupMeta& g : reader->index_.groups) {
    if (g.packed()) continue;  // its blocks are its pack's
    if (!in_data(g.time_offset, g.time_length)) return corrupt("time block out of bounds");
    GNOMON_RETURN_IF_ERROR(verify(g.time_offset, g.time_length, g.time_crc));
    if (g.slices_length > 0) {
      if (!in_data(g.slices_offset, g.slices_length)) return corrupt("slices block out of bounds");
      GNOMON_RETURN_IF_ERROR(verify(g.slices_offset, g.slices_length, g.slices_crc));
    }
  }
  for (const ColumnChunkMeta& c : reader->index_.chunks) {
    if (c.presence == ColumnChunkMeta::kAbsent) continue;
    if (!in_data(c.offset, c.length)) return corrupt("column block out of bounds");
    GNOMON_RETURN_IF_ERROR(verify(c.offset, c.length, c.crc));
    if (c.slice_stats_length > 0) {
      if (!in_data(c.slice_stats_offset, c.slice_stats_length)) {
        return corrupt("slice statistics block out of bounds");
      }
      GNOMON_RETURN_IF_ERROR(verify(c.slice_stats_offset, c.slice_stats_length, c.slice_stats_crc));
    }
    if (c.presence == ColumnChunkMeta::kWithValidity) {
      if (!in_data(c.validity_offset, c.validity_length)) return corrupt("validity block out of bounds");
      GNOMON_RETURN_IF_ERROR(verify(c.validity_offset, c.validity_length, c.validity_crc));
    }
  }
  // Verifying touched every page; scans will map back only what they read.
  reader->file_->ReleaseResidentPages();
  reader->uid_ = NextReaderUid();
  const bool has_slice_stats = std::any_of(reader->index_.chunks.begin(), reader->index_.chunks.end(),
                                           [](const ColumnChunkMeta& c) { return c.slice_stats_length > 0; });
  if (stats_budget != nullptr && has_slice_stats) {
    reader->slice_stats_cache_ = std::make_unique<SliceStatsCache>(std::move(stats_budget), reader->index_.chunks.size());
  }
  return reader;
}

std::optional<SeriesMeta> SegmentReader::FindSeries(SeriesId id, size_t* hint) const {
  const size_t i = hint != nullptr ? index_.series.FindFrom(id, hint) : index_.series.Find(id);
  if (i == SeriesTable::kNotFound) return std::nullopt;
  return index_.series[i];
}

int SegmentReader::FindColumn(const std::string& name, ValueType type) const {
  for (size_t i = 0; i < index_.columns.size(); ++i) {
    if (index_.columns[i].name == name) {
      return index_.columns[i].type == type ? static_cast<int>(i) : -1;
    }
  }
  return -1;
}

Status SegmentReader::Block(uint64_t offset, uint32_t length, uint32_t /*crc: verified at Open*/,
                            std::string_view* out) const {
  return file_->Read(offset, length, out, nullptr);
}

Status SegmentReader::ReadSlices(const RowGroupMeta& group, std::vector<SliceInfo>* out) const {
  out->clear();
  if (group.slices_length == 0) {
    // One slice; its start is only aligned where an aligned start is representable.
    const int64_t start = group.min_time >= INT64_MIN + kSliceWidthNs
                              ? FloorDiv(group.min_time, kSliceWidthNs) * kSliceWidthNs
                              : group.min_time;
    out->push_back(SliceInfo{start, 0, group.rows});
    return Status::OK();
  }
  std::string_view block;
  GNOMON_RETURN_IF_ERROR(Block(group.slices_offset, group.slices_length, group.slices_crc, &block));
  uint64_t n;
  if (!GetVarint64(&block, &n) || n == 0 || n > group.rows) {
    return Status::Corruption("segment " + path_ + ": bad slice count at offset " +
                              std::to_string(group.slices_offset));
  }
  int64_t start = 0;
  uint32_t first = 0;
  for (uint64_t i = 0; i < n; ++i) {
    int64_t delta;
    uint64_t rows;
    if (!GetVarsint64(&block, &delta) || !GetVarint64(&block, &rows) || rows > group.rows - first) {
      return Status::Corruption("segment " + path_ + ": bad slice at offset " +
                                std::to_string(group.slices_offset));
    }
    start += delta * kSliceWidthNs;
    out->push_back(SliceInfo{start, first, static_cast<uint32_t>(rows)});
    first += static_cast<uint32_t>(rows);
  }
  if (first != group.rows || !block.empty()) {
    return Status::Corruption("segment " + path_ + ": slices do not cover the group at offset " +
                              std::to_string(group.slices_offset));
  }
  return Status::OK();
}

Status SegmentReader::ReadSliceStats(const RowGroupMeta& group, size_t column, size_t num_slices,
                                     std::vector<ColumnStats>* out, size_t needed, size_t first) const {
  if (group.packed()) {  // a pack's statistics are not the series'
    out->assign(num_slices, ColumnStats{});
    return Status::OK();
  }
  const ColumnChunkMeta& meta = chunk(group, column);
  const size_t chunk_index = group.first_column + column;
  const ValueType type = index_.columns[column].type;
  if (meta.presence != ColumnChunkMeta::kAbsent && meta.slice_stats_length > 0 && slice_stats_cache_ != nullptr) {
    if (slice_stats_cache_->Read(chunk_index, type, num_slices, first, needed, out)) return Status::OK();
    needed = SIZE_MAX;  // decode them all, to cache
  }
  out->assign(num_slices, ColumnStats{});
  if (meta.presence == ColumnChunkMeta::kAbsent) return Status::OK();
  if (meta.slice_stats_length == 0) {
    if (num_slices == 1) (*out)[0] = meta.stats;
    return Status::OK();
  }
  std::string_view block;
  GNOMON_RETURN_IF_ERROR(Block(meta.slice_stats_offset, meta.slice_stats_length, meta.slice_stats_crc, &block));
  const Status decoded = DecodeSliceStats(type, version_, block, num_slices, needed, out);
  if (!decoded.ok()) {
    return decoded.WithContext("segment " + path_ + ": block at offset " + std::to_string(meta.slice_stats_offset));
  }
  if (slice_stats_cache_ != nullptr) slice_stats_cache_->Insert(chunk_index, type, *out);
  return Status::OK();
}

void SegmentReader::PrefetchGroup(const RowGroupMeta& group, const std::vector<int>& columns, int64_t min_time,
                                  int64_t max_time) const {
  const std::string_view all = file_->Contents();
  constexpr uint32_t kHeadBytes = 192;
  auto fetch = [&](uint64_t offset, uint32_t length) {
    if (offset + length > all.size()) return;
    for (uint32_t b = 0; b < std::min(length, kHeadBytes); b += 64) __builtin_prefetch(all.data() + offset + b);
  };
  // The slices [first, needed) the range covers, estimated from whole hours since the group's
  // first hour (a hint: gaps in the data only make it fetch a little more or less).
  size_t first = 0, needed = SIZE_MAX;
  if (slice_stats_cache_ != nullptr && group.slices_length > 0 && group.min_time >= INT64_MIN + kSliceWidthNs) {
    const int64_t hour0 = FloorDiv(group.min_time, kSliceWidthNs);
    first = static_cast<size_t>(std::max<int64_t>(0, FloorDiv(std::max(min_time, group.min_time), kSliceWidthNs) - hour0));
    needed = static_cast<size_t>(std::max<int64_t>(0, FloorDiv(std::min(max_time, group.max_time), kSliceWidthNs) - hour0 + 1));
  }
  if (!all.empty()) fetch(group.time_offset, group.time_length);
  for (int c : columns) {
    if (c < 0 || static_cast<size_t>(c) >= index_.columns.size()) continue;
    const ColumnChunkMeta& meta = chunk(group, static_cast<size_t>(c));
    if (meta.presence == ColumnChunkMeta::kAbsent) continue;
    if (!all.empty()) fetch(meta.offset, meta.length);
    if (slice_stats_cache_ != nullptr && meta.slice_stats_length > 0) {
      slice_stats_cache_->Prefetch(group.first_column + static_cast<size_t>(c), first, needed);
    }
  }
}

encoding::ChunkLayout SegmentReader::ChunkLayoutOf(const RowGroupMeta& group, size_t column) const {
  encoding::ChunkLayout layout;
  if (group.packed()) return layout;  // packs have no seek points
  const ColumnChunkMeta& meta = chunk(group, column);
  std::string_view block;
  if (meta.presence == ColumnChunkMeta::kAbsent || !Block(meta.offset, meta.length, meta.crc, &block).ok() ||
      !encoding::PeekChunkLayout(block, &layout)) {
    return encoding::ChunkLayout{};
  }
  return layout;
}

bool SegmentReader::EvenTimes(const RowGroupMeta& group, int64_t* first, int64_t* step) const {
  if (group.packed()) return false;  // the block's progression is the pack's
  std::string_view block;
  if (!Block(group.time_offset, group.time_length, group.time_crc, &block).ok()) return false;
  // Times are strictly increasing, so a consistent progression has a positive step and ends at
  // the group's max_time; anything else is decoded the ordinary way (and reported there).
  return encoding::PeekConstantStep(block, first, step) && *step > 0 && *first == group.min_time &&
         static_cast<__int128>(*first) + static_cast<__int128>(*step) * (group.rows - 1) == group.max_time;
}

void SegmentReader::EvenRowRange(const RowGroupMeta& group, int64_t first, int64_t step, int64_t min_time,
                                 int64_t max_time, uint32_t* begin, uint32_t* end) {
  auto rows_before = [&](int64_t t) -> uint32_t {  // rows with time < t
    if (t <= first) return 0;
    const __int128 k = (static_cast<__int128>(t) - first + step - 1) / step;
    return static_cast<uint32_t>(std::min<__int128>(k, group.rows));
  };
  *begin = rows_before(min_time);
  *end = max_time == INT64_MAX ? group.rows : rows_before(max_time + 1);
}

Status SegmentReader::ReadTimes(const RowGroupMeta& group, std::vector<int64_t>* out) const {
  if (group.packed()) {
    const DecodedColumn* pack = nullptr;
    GNOMON_RETURN_IF_ERROR(PackColumn(group, -1, &pack));
    out->assign(pack->i64.begin() + group.pack_first_row, pack->i64.begin() + group.pack_first_row + group.rows);
    return Status::OK();
  }
  std::string_view block;
  GNOMON_RETURN_IF_ERROR(Block(group.time_offset, group.time_length, group.time_crc, &block));
  Status s = encoding::DecodeTimestamps(block, out);
  if (!s.ok()) return s.WithContext("segment " + path_);
  if (out->size() != group.rows) {
    return Status::Corruption("segment " + path_ + ": time block has " +
                              std::to_string(out->size()) + " values, expected " +
                              std::to_string(group.rows));
  }
  return Status::OK();
}

namespace {

// Spreads `dense` (values of the valid rows) over `validity` in place: vec grows to rows entries.
template <typename T>
void Expand(std::vector<T>* vec, const std::vector<uint8_t>& validity) {
  size_t src = vec->size();
  vec->resize(validity.size());
  for (size_t r = validity.size(); r-- > 0;) {
    if (validity[r]) {
      (*vec)[r] = std::move((*vec)[--src]);
    } else {
      (*vec)[r] = T{};
    }
  }
}

}  // namespace

Status SegmentReader::ReadColumn(const RowGroupMeta& group, size_t column, DecodedColumn* out) const {
  if (group.packed()) return ReadColumnRows(group, column, {{0, group.rows}}, out);
  const ColumnChunkMeta& meta = chunk(group, column);
  const ValueType type = index_.columns[column].type;
  if (meta.presence == ColumnChunkMeta::kAbsent) {
    out->AssignNulls(type, group.rows);
    return Status::OK();
  }
  out->Clear();
  out->type = type;
  std::string_view block;
  GNOMON_RETURN_IF_ERROR(Block(meta.offset, meta.length, meta.crc, &block));
  Status s;
  size_t got = 0;
  switch (type) {
    case ValueType::kFloat64: s = encoding::DecodeFloat64s(block, &out->f64); got = out->f64.size(); break;
    case ValueType::kInt64: s = encoding::DecodeInt64s(block, &out->i64); got = out->i64.size(); break;
    case ValueType::kUInt64: s = encoding::DecodeUInt64s(block, &out->u64); got = out->u64.size(); break;
    case ValueType::kBool: s = encoding::DecodeBools(block, &out->b); got = out->b.size(); break;
    case ValueType::kString:
      s = encoding::DecodeStrings(block, &out->str, &out->arena);
      got = out->str.size();
      break;
    default: return Status::Corruption("segment " + path_ + ": bad column type");
  }
  if (!s.ok()) return s.WithContext("segment " + path_);
  if (got != meta.stats.count) {
    return Status::Corruption("segment " + path_ + ": column block at offset " +
                              std::to_string(meta.offset) + " has " + std::to_string(got) +
                              " values, expected " + std::to_string(meta.stats.count));
  }
  if (meta.presence == ColumnChunkMeta::kWithValidity) {
    GNOMON_RETURN_IF_ERROR(Block(meta.validity_offset, meta.validity_length, meta.validity_crc, &block));
    s = encoding::DecodeBools(block, &out->validity);
    if (!s.ok()) return s.WithContext("segment " + path_);
    size_t valid = 0;
    for (uint8_t v : out->validity) valid += v != 0;
    if (out->validity.size() != group.rows || valid != got) {
      return Status::Corruption("segment " + path_ + ": validity block at offset " +
                                std::to_string(meta.validity_offset) + " disagrees with its column");
    }
    switch (type) {
      case ValueType::kFloat64: Expand(&out->f64, out->validity); break;
      case ValueType::kInt64: Expand(&out->i64, out->validity); break;
      case ValueType::kUInt64: Expand(&out->u64, out->validity); break;
      case ValueType::kBool: Expand(&out->b, out->validity); break;
      case ValueType::kString: Expand(&out->str, out->validity); break;
      default: break;
    }
  } else if (got != group.rows) {
    return Status::Corruption("segment " + path_ + ": dense column block has " +
                              std::to_string(got) + " values for " + std::to_string(group.rows) +
                              " rows");
  }
  return Status::OK();
}

Status SegmentReader::CheckRowRanges(const RowGroupMeta& group,
                                     const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                                     size_t* total) const {
  for (const auto& [b, e] : ranges) {
    if (b > e || e > group.rows) return Status::InvalidArgument("segment " + path_ + ": row range outside the group");
    *total += e - b;
  }
  return Status::OK();
}

Status SegmentReader::ReadColumnRows(const RowGroupMeta& group, size_t column,
                                     const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                                     DecodedColumn* out) const {
  size_t total = 0;
  GNOMON_RETURN_IF_ERROR(CheckRowRanges(group, ranges, &total));
  const ColumnChunkMeta& meta = chunk(group, column);
  const ValueType type = index_.columns[column].type;
  if (meta.presence == ColumnChunkMeta::kAbsent) {
    out->AssignNulls(type, total);
    return Status::OK();
  }
  if (group.packed()) {
    const DecodedColumn* pack = nullptr;
    GNOMON_RETURN_IF_ERROR(PackColumn(group, static_cast<int>(column), &pack));
    out->AssignRanges(*pack, ranges, group.pack_first_row);
    return Status::OK();
  }
  const bool integer = type == ValueType::kInt64 || type == ValueType::kUInt64;
  if (meta.presence == ColumnChunkMeta::kDense && integer) {
    if (meta.stats.count != group.rows) {
      return Status::Corruption("segment " + path_ + ": dense column at offset " + std::to_string(meta.offset) +
                                " counts " + std::to_string(meta.stats.count) + " values for " +
                                std::to_string(group.rows) + " rows");
    }
    return ReadColumnsRows(group, {column}, ranges, {out});  // decodes only the chunks needed
  }
  GNOMON_RETURN_IF_ERROR(ReadColumn(group, column, out));
  if (ranges.size() == 1) {
    out->KeepRowRange(ranges[0].first, ranges[0].second);
  } else {
    std::vector<uint8_t> keep(group.rows, 0);
    for (const auto& [b, e] : ranges) std::fill(keep.begin() + b, keep.begin() + e, uint8_t{1});
    out->KeepRows(keep);
  }
  return Status::OK();
}

Status SegmentReader::ReadColumnsRows(const RowGroupMeta& group, const std::vector<size_t>& columns,
                                      const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                                      const std::vector<DecodedColumn*>& outs) const {
  if (group.packed()) {
    for (size_t i = 0; i < columns.size(); ++i) GNOMON_RETURN_IF_ERROR(ReadColumnRows(group, columns[i], ranges, outs[i]));
    return Status::OK();
  }
  std::vector<std::string_view> blocks;
  std::vector<std::vector<int64_t>*> dense;
  std::vector<DecodedColumn*> dense_cols;
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnChunkMeta& meta = chunk(group, columns[i]);
    const ValueType type = index_.columns[columns[i]].type;
    const bool integer = type == ValueType::kInt64 || type == ValueType::kUInt64;
    if (meta.presence != ColumnChunkMeta::kDense || !integer || meta.stats.count != group.rows) {
      // Whole-block decoding (or the Corruption of a dense column that miscounts its rows).
      GNOMON_RETURN_IF_ERROR(ReadColumnRows(group, columns[i], ranges, outs[i]));
      continue;
    }
    std::string_view block;
    GNOMON_RETURN_IF_ERROR(Block(meta.offset, meta.length, meta.crc, &block));
    outs[i]->Clear();
    outs[i]->type = type;
    blocks.push_back(block);
    dense.push_back(&outs[i]->i64);  // uint64 values travel as their bit patterns
    dense_cols.push_back(outs[i]);
  }
  size_t total = 0;
  GNOMON_RETURN_IF_ERROR(CheckRowRanges(group, ranges, &total));
  Status s = encoding::DecodeInt64RangesMany(blocks, ranges, dense);
  if (!s.ok()) return s.WithContext("segment " + path_);
  for (DecodedColumn* c : dense_cols) {
    if (c->type != ValueType::kUInt64) continue;
    c->u64.resize(c->i64.size());
    std::memcpy(c->u64.data(), c->i64.data(), c->i64.size() * sizeof(int64_t));
    c->i64.clear();
  }
  return Status::OK();
}

Status SegmentReader::PackColumn(const RowGroupMeta& group, int column, const DecodedColumn** out) const {
  if (group.pack >= index_.packs.size()) return Status::Corruption("segment " + path_ + ": bad pack index");
  const PackMeta& p = index_.packs[group.pack];
  if (group.pack_first_row > p.rows || group.rows > p.rows - group.pack_first_row) {
    return Status::Corruption("segment " + path_ + ": packed series outside its pack");
  }
  PackCache& cache = ThreadPackCache();
  const PackKey key{uid_, group.pack, column};
  if ((*out = cache.Find(key)) != nullptr) return Status::OK();
  // The pack read as an ordinary group of its own.
  const RowGroupMeta whole = PackGroup(p);
  DecodedColumn* values = cache.Emplace(key);
  Status s;
  if (column < 0) {
    values->type = ValueType::kInt64;
    s = ReadTimes(whole, &values->i64);
  } else {
    s = ReadColumn(whole, static_cast<size_t>(column), values);
  }
  if (!s.ok()) {
    cache.Drop(key);
    return s;
  }
  cache.Commit();
  *out = values;
  return Status::OK();
}

}  // namespace gnomon::storage
