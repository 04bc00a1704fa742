#include "src/storage/data_dir_inspect.h"

#include <algorithm>
#include <map>

#include "src/base/time_util.h"
#include "src/base/value_type.h"
#include "src/encoding/block_codec.h"
#include "src/encoding/codec_tag.h"
#include "src/index/series_registry.h"
#include "src/port/read_only_env.h"
#include "src/storage/data_dir_layout.h"
#include "src/storage/manifest.h"
#include "src/storage/segment_reader.h"
#include "src/storage/write_batch_codec.h"
#include "src/wal/replay.h"
#include "src/wal/wal_format.h"

namespace gnomon::storage {
namespace {

std::string Range(int64_t min_time, int64_t max_time) {
  return FormatRfc3339(min_time) + " .. " + FormatRfc3339(max_time);
}

// Blocks and bytes per codec of one column (or of the time column) across a segment.
struct CodecTally {
  uint64_t blocks = 0;
  uint64_t bytes = 0;
  std::map<std::string, uint64_t> by_codec;

  void Add(const port::RandomAccessFile& file, uint64_t offset, uint32_t length) {
    ++blocks;
    bytes += length;
    std::string scratch(std::min<uint32_t>(length, 16), '\0');
    std::string_view head;
    uint8_t codec = 0;
    uint32_t count = 0;
    if (length == 0 || !file.Read(offset, scratch.size(), &head, scratch.data()).ok() ||
        !encoding::PeekBlockHeader(head, &codec, &count).ok()) {
      by_codec["?"] += 1;
      return;
    }
    by_codec[std::string(encoding::CodecName(encoding::TagCodecId(codec)))] += 1;
  }

  std::string Format() const {
    std::string out = std::to_string(blocks) + " blocks, " + std::to_string(bytes) + " bytes";
    for (const auto& [codec, n] : by_codec) out += ", " + codec + " x" + std::to_string(n);
    return out;
  }
};

}  // namespace

Result<std::string> DescribeManifest(port::Env* env, const std::string& data_dir) {
  GNOMON_ASSIGN_OR_RETURN(Manifest m, LoadManifest(env, data_dir));
  std::string out = "manifest " + port::JoinPath(data_dir, kManifestFileName) + "\n";
  out += "  next file number " + std::to_string(m.next_file_number) + ", next sequence " +
         std::to_string(m.next_sequence) + ", WAL live from segment " + std::to_string(m.wal_first_live_segment) + "\n";
  for (const ManifestDatabase& db : m.databases) {
    out += "database " + db.name + " (dir " + db.dir_name + ", retention " +
           (db.retention_ns == 0 ? std::string("server default") : std::to_string(db.retention_ns) + " ns") + ")\n";
    for (const ManifestTable& t : db.tables) {
      out += "  table " + t.name + " (dir " + t.dir_name + "): " + std::to_string(t.fields.size()) + " fields, " +
             std::to_string(t.tag_keys.size()) + " tag keys, " + std::to_string(t.segments.size()) + " segments\n";
      out += "    fields:";
      for (const auto& [name, type] : t.fields) out += " " + name + ":" + std::string(ValueTypeName(type));
      out += "\n    tag keys:";
      for (const std::string& k : t.tag_keys) out += " " + k;
      out += "\n";
      for (const ManifestSegment& s : t.segments) {
        out += "    " + SegmentFileName(s.file_number) + " seq " + std::to_string(s.sequence) + " partition " +
               FormatRfc3339(s.partition_start) + " rows " + std::to_string(s.rows) + " bytes " +
               std::to_string(s.bytes) + " time " + Range(s.min_time, s.max_time) + "\n";
      }
    }
  }
  return out;
}

Result<std::string> DescribeSegment(port::Env* env, const std::string& path) {
  GNOMON_ASSIGN_OR_RETURN(auto reader, SegmentReader::Open(env, path));
  GNOMON_ASSIGN_OR_RETURN(auto file, env->NewRandomAccessFile(path));
  const SegmentIndex& index = reader->index();
  size_t packed = 0;
  for (const SeriesMeta& s : index.series) packed += s.packed();
  std::string out = "segment " + path + " (" + std::to_string(reader->file_size()) + " bytes; every block's checksum verified)\n";
  out += "  table " + index.table + ", " + std::to_string(index.rows) + " rows, time " +
         Range(index.min_time, index.max_time) + "\n";
  out += "  " + std::to_string(index.series.size()) + " series (" + std::to_string(packed) + " in " +
         std::to_string(index.packs.size()) + " packs), " + std::to_string(index.groups.size()) + " row groups\n";
  // Blocks of the unpacked groups, then of the packs (packed groups share their pack's).
  const size_t ncols = index.columns.size();
  std::vector<CodecTally> columns(ncols);
  CodecTally times;
  uint64_t slices_blocks = 0, slices_bytes = 0, stats_blocks = 0, stats_bytes = 0, validity_blocks = 0,
           validity_bytes = 0;
  auto add_chunks = [&](uint32_t first_column) {
    for (size_t c = 0; c < ncols && first_column + c < index.chunks.size(); ++c) {
      const ColumnChunkMeta& chunk = index.chunks[first_column + c];
      if (chunk.presence == ColumnChunkMeta::kAbsent) continue;
      columns[c].Add(*file, chunk.offset, chunk.length);
      validity_blocks += chunk.validity_length > 0;
      validity_bytes += chunk.validity_length;
      stats_blocks += chunk.slice_stats_length > 0;
      stats_bytes += chunk.slice_stats_length;
    }
  };
  for (const RowGroupMeta& g : index.groups) {
    if (g.pack != kNoPack) continue;
    times.Add(*file, g.time_offset, g.time_length);
    slices_blocks += g.slices_length > 0;
    slices_bytes += g.slices_length;
    add_chunks(g.first_column);
  }
  for (const PackMeta& p : index.packs) {
    times.Add(*file, p.time_offset, p.time_length);
    add_chunks(p.first_column);
  }
  out += "  time: " + times.Format() + "\n";
  uint64_t data_bytes = times.bytes + slices_bytes + stats_bytes + validity_bytes;
  for (size_t c = 0; c < ncols; ++c) {
    out += "  " + index.columns[c].name + " (" + std::string(ValueTypeName(index.columns[c].type)) +
           "): " + columns[c].Format() + "\n";
    data_bytes += columns[c].bytes;
  }
  out += "  validity: " + std::to_string(validity_blocks) + " blocks, " + std::to_string(validity_bytes) +
         " bytes; hour slices: " + std::to_string(slices_blocks) + " blocks, " + std::to_string(slices_bytes) +
         " bytes; slice statistics: " + std::to_string(stats_blocks) + " blocks, " + std::to_string(stats_bytes) +
         " bytes\n";
  const uint64_t framing = sizeof(kSegmentMagic) + kSegmentFooterSize;
  if (reader->file_size() >= data_bytes + framing) {
    out += "  index: " + std::to_string(reader->file_size() - data_bytes - framing) + " bytes\n";
  }
  return out;
}

Result<std::string> DescribeWal(port::Env* env, const std::string& data_dir) {
  GNOMON_ASSIGN_OR_RETURN(Manifest m, LoadManifest(env, data_dir));
  struct SegmentTally {
    uint64_t records = 0, bytes = 0, first_lsn = 0, last_lsn = 0;
    std::map<int, uint64_t> by_type;
  };
  std::map<uint64_t, SegmentTally> segments;
  wal::ReplayOptions options;
  options.min_segment = m.wal_first_live_segment;
  options.repair = false;
  auto report = wal::ReplayWal(env, port::JoinPath(data_dir, kWalDirName), options,
                               [&](std::string_view record, uint64_t lsn) {
                                 SegmentTally& t = segments[wal::LsnSegment(lsn)];
                                 if (t.records++ == 0) t.first_lsn = lsn;
                                 t.last_lsn = lsn;
                                 t.bytes += record.size();
                                 t.by_type[record.empty() ? -1 : static_cast<uint8_t>(record[0])] += 1;
                                 return Status::OK();
                               });
  GNOMON_RETURN_IF_ERROR(report.status());
  static const std::map<int, std::string> kNames = {
      {static_cast<int>(WalRecordType::kWriteBatch), "write"},
      {static_cast<int>(WalRecordType::kWriteBatchById), "write-by-id"},
      {static_cast<int>(WalRecordType::kDeleteRows), "delete"},
      {static_cast<int>(WalRecordType::kDropTable), "drop-table"},
      {static_cast<int>(WalRecordType::kDropDatabase), "drop-database"}};
  std::string out = "WAL " + port::JoinPath(data_dir, kWalDirName) + ": " + std::to_string(report->records) +
                    " live records, " + std::to_string(report->bytes) + " bytes, from segment " +
                    std::to_string(m.wal_first_live_segment) + "\n";
  for (const auto& [number, t] : segments) {
    out += "  segment " + std::to_string(number) + ": " + std::to_string(t.records) + " records, " +
           std::to_string(t.bytes) + " bytes, offsets " + std::to_string(wal::LsnOffset(t.first_lsn)) + " .. " +
           std::to_string(wal::LsnOffset(t.last_lsn));
    for (const auto& [type, n] : t.by_type) {
      auto name = kNames.find(type);
      out += ", " + (name == kNames.end() ? "type " + std::to_string(type) : name->second) + " x" + std::to_string(n);
    }
    out += "\n";
  }
  if (report->damaged) out += "  damage: " + report->detail + "\n";
  return out;
}

Result<std::string> DescribeRegistry(port::Env* env, const std::string& dir, size_t limit) {
  port::ReadOnlyEnv read_only(env);
  GNOMON_ASSIGN_OR_RETURN(auto registry, index::SeriesRegistry::Open(&read_only, dir));
  std::string out = "series registry " + dir + ": " + std::to_string(registry->size()) + " series\n  tag keys:";
  for (const std::string& k : registry->TagKeys()) out += " " + k;
  out += "\n";
  const size_t n = std::min(limit, registry->size());
  for (size_t id = 0; id < n; ++id) {
    out += "  " + std::to_string(id) + ":";
    for (const index::TagRef& t : registry->Tags(static_cast<index::SeriesId>(id))) {
      out += " " + std::string(t.key) + "=" + std::string(t.value);
    }
    out += "\n";
  }
  for (const std::string& change : read_only.Changes()) out += "  start-up would " + change + "\n";
  return out;
}

}  // namespace gnomon::storage
