// Table: freezing memtables, writing and installing segments, compaction, retention, deletes.
#include <algorithm>
#include <map>
#include <numeric>

#include "src/base/fault_point.h"
#include "src/base/logging.h"
#include "src/base/time_util.h"
#include "src/encoding/general_compression.h"
#include "src/storage/row_selection.h"
#include "src/storage/segment_writer.h"
#include "src/storage/table.h"

namespace gnomon::storage {
namespace {

// Copies rows [begin, end) of a decoded column into a memtable-style column buffer.
void AppendDecoded(const DecodedColumn& src, size_t begin, size_t end, ColumnBuffer* dst) {
  if (dst->type == ValueType::kNull) dst->type = src.type;
  size_t have = dst->type == ValueType::kString ? dst->strings.size() : dst->bits.size();
  for (size_t r = begin; r < end; ++r) {
    bool valid = src.validity.empty() || src.validity[r] != 0;
    uint64_t bits = 0;
    switch (src.type) {
      case ValueType::kFloat64: std::memcpy(&bits, &src.f64[r], 8); break;
      case ValueType::kInt64: bits = static_cast<uint64_t>(src.i64[r]); break;
      case ValueType::kUInt64: bits = src.u64[r]; break;
      case ValueType::kBool: bits = src.b[r]; break;
      default: break;
    }
    if (src.type == ValueType::kString) {
      dst->strings.emplace_back(valid ? src.str[r] : std::string_view());
    } else {
      dst->bits.push_back(bits);
    }
    // Validity is materialised at the first NULL (earlier rows all valid); an empty vector
    // cannot tell "no NULL yet" from "first row NULL", so track the row count instead.
    const size_t rows_before = have + (r - begin);
    if (!valid && dst->null_count == 0 && dst->validity.size() < rows_before + 1) {
      dst->validity.assign(rows_before, 1);
    }
    if (!valid || dst->null_count > 0) dst->validity.push_back(valid ? 1 : 0);
    if (!valid) ++dst->null_count;
  }
}

int64_t PartitionStart(int64_t t, int64_t partition_ns) {
  return FloorDiv(t, partition_ns) * partition_ns;
}

// Empties `out` and gives it `ncols` absent columns, keeping the vectors' capacity: compaction at
// ten million series reads and merges a few rows a series, and fresh vectors for each were most
// of its time.
void ResetSeries(size_t ncols, SortedSeries* out) {
  out->times.clear();
  out->columns.resize(ncols);
  for (ColumnBuffer& c : out->columns) ClearToAbsent(&c);
}

}  // namespace

// Reads every row of series `meta` in [min_time, max_time] from a segment, all columns.
Status ReadSeriesFromSegment(const SegmentReader& reader, const SeriesMeta& meta, int64_t min_time,
                             int64_t max_time, SortedSeries* out, const std::vector<int>* columns) {
  const size_t ncols = reader.index().columns.size();
  ResetSeries(ncols, out);
  auto wanted = [&](size_t c) {
    return columns == nullptr || std::find(columns->begin(), columns->end(), static_cast<int>(c)) != columns->end();
  };
  // Per thread, reused: the decoded blocks of one series at a time.
  thread_local std::vector<int64_t> times;
  thread_local DecodedColumn col;
  for (uint32_t g = 0; g < meta.num_groups; ++g) {
    const RowGroupMeta group = reader.group(meta, g);
    if (group.max_time < min_time || group.min_time > max_time) continue;
    uint32_t begin, end;
    int64_t first = 0, step = 0;
    if (reader.EvenTimes(group, &first, &step)) {
      // Evenly spaced times: the range's rows follow from the step, nothing is decoded.
      SegmentReader::EvenRowRange(group, first, step, min_time, max_time, &begin, &end);
      if (begin >= end) continue;
      for (uint32_t r = begin; r < end; ++r) out->times.push_back(first + static_cast<int64_t>(r) * step);
    } else {
      GNOMON_RETURN_IF_ERROR(reader.ReadTimes(group, &times));
      begin = static_cast<uint32_t>(std::lower_bound(times.begin(), times.end(), min_time) - times.begin());
      end = static_cast<uint32_t>(std::upper_bound(times.begin(), times.end(), max_time) - times.begin());
      if (begin >= end) continue;
      out->times.insert(out->times.end(), times.begin() + begin, times.begin() + end);
    }
    thread_local std::vector<std::pair<uint32_t, uint32_t>> range(1);
    range[0] = {begin, end};
    for (size_t c = 0; c < ncols; ++c) {
      if (!wanted(c)) continue;
      GNOMON_RETURN_IF_ERROR(reader.ReadColumnRows(group, c, range, &col));
      AppendDecoded(col, 0, end - begin, &out->columns[c]);
    }
  }
  // Columns that had no value at all stay typeless (absent).
  for (ColumnBuffer& c : out->columns) {
    if (c.null_count == out->times.size()) ClearToAbsent(&c);
  }
  return Status::OK();
}

void MergeSortedSeries(std::span<SortedSeries> sources, const TableSchema& schema, SortedSeries* out) {
  if (sources.size() == 1) {
    std::swap(*out, sources[0]);  // the source takes out's buffers for its next use
    return;
  }
  struct Ref {
    int64_t time;
    uint32_t source;
    uint32_t row;
  };
  thread_local std::vector<Ref> refs;
  refs.clear();
  size_t ncols = 0;
  for (uint32_t s = 0; s < sources.size(); ++s) {
    const SortedSeries& src = sources[s];
    ncols = std::max(ncols, src.columns.size());
    for (uint32_t r = 0; r < src.times.size(); ++r) refs.push_back(Ref{src.times[r], s, r});
  }
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
    return a.time != b.time ? a.time < b.time : a.source < b.source;
  });
  ResetSeries(ncols, out);
  for (size_t c = 0; c < ncols; ++c) {
    if (c < schema.fields().size()) out->columns[c].type = schema.fields()[c].type;
  }
  std::vector<uint8_t> any_value(ncols, 0);
  for (size_t i = 0; i < refs.size();) {
    size_t j = i;
    while (j < refs.size() && refs[j].time == refs[i].time) ++j;
    const size_t row = out->times.size();
    out->times.push_back(refs[i].time);
    for (size_t c = 0; c < ncols; ++c) {
      ColumnBuffer& dst = out->columns[c];
      // Newest source with a value for this column wins.
      int pick = -1;
      for (size_t k = j; k-- > i;) {
        const SortedSeries& src = sources[refs[k].source];
        if (c >= src.columns.size() || src.columns[c].type == ValueType::kNull) continue;
        const ColumnBuffer& sc = src.columns[c];
        if (!sc.validity.empty() && sc.validity[refs[k].row] == 0) continue;
        pick = static_cast<int>(k);
        break;
      }
      if (pick < 0) {
        if (dst.validity.empty()) dst.validity.assign(row, 1);
        dst.validity.push_back(0);
        ++dst.null_count;
        if (dst.type == ValueType::kString) dst.strings.emplace_back(); else dst.bits.push_back(0);
        continue;
      }
      const ColumnBuffer& sc = sources[refs[pick].source].columns[c];
      if (dst.type == ValueType::kNull) dst.type = sc.type;
      any_value[c] = 1;
      if (sc.type == ValueType::kString) {
        dst.strings.push_back(sc.strings[refs[pick].row]);
      } else {
        dst.bits.push_back(sc.bits[refs[pick].row]);
      }
      if (!dst.validity.empty()) dst.validity.push_back(1);
    }
    i = j;
  }
  for (size_t c = 0; c < ncols; ++c) {
    if (!any_value[c]) ClearToAbsent(&out->columns[c]);
  }
}

bool Table::Freeze() {
  std::unique_lock lock(mu_);
  if (active_->empty()) return false;
  frozen_.push_back(std::move(active_));
  active_ = std::make_shared<Memtable>();
  return true;
}

namespace {

// Writes series, ascending by id, into one segment per time partition (a segment is opened when
// its partition's first row arrives), holding one series at a time: a flush or rewrite of any
// number of series stays bounded in memory.
class PartitionedSegmentWriter {
 public:
  PartitionedSegmentWriter(port::Env* env, std::string table, std::vector<SegmentColumn> columns,
                           int64_t partition_ns, const std::function<uint64_t()>& next_file,
                           std::function<std::string(uint64_t)> path_of)
      : env_(env), table_(std::move(table)), columns_(std::move(columns)), partition_ns_(partition_ns),
        next_file_(next_file), path_of_(std::move(path_of)) {}

  // REQUIRES: ids ascending across calls; data sorted by time with unique times.
  Status Add(SeriesId id, const SortedSeries& data) {
    size_t begin = 0;
    while (begin < data.times.size()) {
      const int64_t pstart = PartitionStart(data.times[begin], partition_ns_);
      const int64_t pend = pstart + partition_ns_ - 1;
      const size_t end = std::upper_bound(data.times.begin() + begin, data.times.end(), pend) - data.times.begin();
      const SortedSeries* rows = &data;
      if (begin > 0 || end < data.times.size()) {  // the series spans partitions: cut its rows
        CutRows(data, begin, end, &part_);
        rows = &part_;
      }
      auto it = writers_.find(pstart);
      if (it == writers_.end()) {
        Pending p;
        p.file_number = next_file_();
        p.writer = std::make_unique<SegmentWriter>(env_, path_of_(p.file_number), table_, columns_);
        GNOMON_RETURN_IF_ERROR(p.writer->Open());
        it = writers_.emplace(pstart, std::move(p)).first;
      }
      GNOMON_RETURN_IF_ERROR(it->second.writer->AddSeries(id, *rows));
      begin = end;
    }
    return Status::OK();
  }

  // Completes every segment (sequence `sequence`), opens them, and syncs `dir`.
  Status Finish(uint64_t sequence, const std::string& dir, const std::shared_ptr<CacheBudget>& stats_budget,
                std::vector<SegmentRef>* out) {
    for (auto& [pstart, pending] : writers_) {
      SegmentIndex index;
      GNOMON_RETURN_IF_ERROR(pending.writer->Finish(&index));
      SegmentRef ref;
      ref.meta.file_number = pending.file_number;
      ref.meta.sequence = sequence;
      ref.meta.partition_start = pstart;
      ref.meta.min_time = index.min_time;
      ref.meta.max_time = index.max_time;
      ref.meta.rows = index.rows;
      ref.meta.bytes = pending.writer->FileSize();
      index = SegmentIndex{};  // the reader decodes its own: do not hold two at once
      GNOMON_ASSIGN_OR_RETURN(ref.reader, SegmentReader::Open(env_, path_of_(pending.file_number), stats_budget));
      out->push_back(std::move(ref));
    }
    return env_->SyncDir(dir);
  }

 private:
  struct Pending {
    uint64_t file_number;
    std::unique_ptr<SegmentWriter> writer;
  };

  static void CutRows(const SortedSeries& data, size_t begin, size_t end, SortedSeries* out) {
    out->times.assign(data.times.begin() + begin, data.times.begin() + end);
    out->columns.resize(data.columns.size());
    for (size_t c = 0; c < data.columns.size(); ++c) {
      const ColumnBuffer& src = data.columns[c];
      ColumnBuffer& dst = out->columns[c];
      dst = ColumnBuffer{};
      if (src.type == ValueType::kNull) continue;
      dst.type = src.type;
      if (src.type == ValueType::kString) {
        dst.strings.assign(src.strings.begin() + begin, src.strings.begin() + end);
      } else {
        dst.bits.assign(src.bits.begin() + begin, src.bits.begin() + end);
      }
      if (!src.validity.empty()) dst.validity.assign(src.validity.begin() + begin, src.validity.begin() + end);
    }
  }

  port::Env* const env_;
  const std::string table_;
  const std::vector<SegmentColumn> columns_;
  const int64_t partition_ns_;
  const std::function<uint64_t()>& next_file_;
  const std::function<std::string(uint64_t)> path_of_;
  std::map<int64_t, Pending> writers_;  // by partition start
  SortedSeries part_;
};

// A schema's fields as a segment's column list (a segment's ColumnIds are the table's).
std::vector<SegmentColumn> SegmentColumnsOf(const TableSchema& schema) {
  std::vector<SegmentColumn> columns;
  for (const FieldColumn& f : schema.fields()) columns.push_back(SegmentColumn{f.name, f.type});
  return columns;
}

}  // namespace

std::vector<SegmentColumn> Table::SegmentColumns() const {
  std::shared_lock lock(mu_);
  return SegmentColumnsOf(schema_);
}

Result<bool> Table::FlushOldestFrozen(int64_t partition_ns, const std::function<uint64_t()>& next_file,
                                      uint64_t sequence) {
  std::lock_guard maintenance(maintenance_mu_);
  std::shared_ptr<Memtable> mem;
  std::vector<int> all_columns;
  {
    std::shared_lock lock(mu_);
    if (frozen_.empty()) return false;
    mem = frozen_.front();
    all_columns.resize(schema_.fields().size());
    std::iota(all_columns.begin(), all_columns.end(), 0);
  }
  // Segments name series ids: make the registry durable before anything refers to them.
  GNOMON_RETURN_IF_ERROR(registry_->Sync());
  // Series by series, straight from the memtable into the segments: memory holds one series.
  // Compaction rewrites flushed segments soon: a flush spends less on compression (no zstd, which
  // rarely wins on these columns: the same bytes at 100 hosts) to keep up with ingest.
  encoding::ScopedCompressionEffort effort(encoding::CompressionEffort::kFast);
  PartitionedSegmentWriter writer(env_, name_, SegmentColumns(), partition_ns, next_file,
                                  [this](uint64_t n) { return SegmentPath(n); });
  SortedSeries s;
  for (SeriesId id : mem->SeriesIds()) {
    mem->ReadSorted(id, INT64_MIN, INT64_MAX, all_columns, &s, SIZE_MAX, /*keep_page_order=*/false);
    if (!s.times.empty()) GNOMON_RETURN_IF_ERROR(writer.Add(id, s));
  }
  std::vector<SegmentRef> segments;
  GNOMON_RETURN_IF_ERROR(writer.Finish(sequence, dir_, stats_budget_, &segments));
  GNOMON_FAULT_POINT("flush.after_segment");
  std::unique_lock lock(mu_);
  frozen_.erase(frozen_.begin());
  const int64_t now = SteadyNanos();
  for (auto& s : segments) {
    last_flush_[s.meta.partition_start] = now;
    segments_.push_back(std::move(s));
  }
  return true;
}

namespace {

// Where the newest run of a partition's segments (ascending sequence) begins: walking from the
// newest back, an older segment joins while its rows are at most those of the run so far, so a
// big segment waits until as much has been flushed after it. Merges must take a contiguous run
// of sequences: a row's newest version is decided by segment order.
size_t TieredRunStart(const std::vector<SegmentRef>& inputs) {
  size_t start = inputs.size();
  uint64_t run_rows = 0;
  while (start > 0) {
    const uint64_t rows = inputs[start - 1].meta.rows;
    if (start < inputs.size() && rows > run_rows) break;
    run_rows += rows;
    --start;
  }
  return start;
}

}  // namespace

Status Table::Compact(int min_segments, const std::function<uint64_t()>& next_file, int64_t cold_before,
                      bool tiered, const std::atomic<bool>* cancel) {
  // Not maintenance_mu_: flushes go on while a partition is merged. Deletes rewrite segments, so
  // they exclude compaction; a retention drop may remove inputs meanwhile (checked at install).
  std::lock_guard compaction(compaction_mu_);
  std::map<int64_t, std::vector<SegmentRef>> by_partition;
  std::map<int64_t, int64_t> last_flush;
  TableSchema schema;
  {
    std::shared_lock lock(mu_);
    for (const SegmentRef& s : segments_) by_partition[s.meta.partition_start].push_back(s);
    // A merge would drop the damaged file's rows from the partition's newest version.
    for (const DamagedSegment& d : damaged_) by_partition.erase(d.meta.partition_start);
    last_flush = last_flush_;
    schema = schema_;
  }
  const std::vector<SegmentColumn> columns = SegmentColumnsOf(schema);
  for (auto& [pstart, inputs] : by_partition) {
    if (inputs.size() < 2) continue;
    const auto flushed = last_flush.find(pstart);
    const bool cold = flushed != last_flush.end() && flushed->second < cold_before;
    if (tiered && !cold) inputs.erase(inputs.begin(), inputs.begin() + TieredRunStart(inputs));
    if (inputs.size() < 2 || (static_cast<int>(inputs.size()) < min_segments && !cold)) continue;
    // inputs are in ascending sequence order (segments_ is kept sorted).
    uint64_t sequence = 0;
    for (const SegmentRef& s : inputs) sequence = std::max(sequence, s.meta.sequence);

    // One partition in, one segment out, written series by series so memory holds one series:
    // the inputs' series tables are walked together in id order, and the buffers of one series
    // are reused for the next.
    const uint64_t file_number = next_file();
    const std::string path = SegmentPath(file_number);
    SegmentWriter writer(env_, path, name_, columns);
    GNOMON_RETURN_IF_ERROR(writer.Open());
    std::vector<SeriesTable::Iterator> next, end;
    for (const SegmentRef& s : inputs) {
      next.push_back(s.reader->index().series.begin());
      end.push_back(s.reader->index().series.end());
    }
    std::vector<SortedSeries> sources(inputs.size());
    SortedSeries merged;
    for (uint32_t merged_series = 0;; ++merged_series) {
      // A merge of millions of series takes minutes: a closing engine abandons it (the inputs
      // stay, the partial output goes) rather than wait.
      if (cancel != nullptr && merged_series % kCancelCheckSeries == 0 && cancel->load(std::memory_order_relaxed)) {
        (void)env_->RemoveFile(path);
        return Status::Aborted("compaction of table " + name_ + " partition " + FormatRfc3339(pstart) +
                               " abandoned: the engine is closing");
      }
      SeriesId id = UINT32_MAX;
      bool any = false;
      for (size_t k = 0; k < inputs.size(); ++k) {
        if (next[k] == end[k]) continue;
        id = any ? std::min(id, next[k].id()) : next[k].id();
        any = true;
      }
      if (!any) break;
      size_t found = 0;
      for (size_t k = 0; k < inputs.size(); ++k) {  // oldest first, as the merge wants
        if (next[k] == end[k] || next[k].id() != id) continue;
        GNOMON_RETURN_IF_ERROR(
            ReadSeriesFromSegment(*inputs[k].reader, *next[k], INT64_MIN, INT64_MAX, &sources[found++]));
        ++next[k];
      }
      MergeSortedSeries(std::span<SortedSeries>(sources.data(), found), schema, &merged);
      if (!merged.times.empty()) GNOMON_RETURN_IF_ERROR(writer.AddSeries(id, merged));
    }
    SegmentIndex index;
    GNOMON_RETURN_IF_ERROR(writer.Finish(&index));
    GNOMON_FAULT_POINT("compaction.after_output");
    GNOMON_RETURN_IF_ERROR(env_->SyncDir(dir_));
    SegmentRef out;
    out.meta.file_number = file_number;
    out.meta.sequence = sequence;
    out.meta.partition_start = pstart;
    out.meta.min_time = index.min_time;
    out.meta.max_time = index.max_time;
    out.meta.rows = index.rows;
    out.meta.bytes = writer.FileSize();
    index = SegmentIndex{};  // the reader decodes its own: do not hold two at once
    GNOMON_ASSIGN_OR_RETURN(out.reader, SegmentReader::Open(env_, path, stats_budget_));
    {
      std::unique_lock lock(mu_);
      // A named reference: clang before 16 cannot capture a structured binding.
      const std::vector<SegmentRef>& input_list = inputs;
      auto is_input = [&](const SegmentRef& s) {
        for (const SegmentRef& in : input_list) {
          if (in.meta.file_number == s.meta.file_number) return true;
        }
        return false;
      };
      size_t present = std::count_if(segments_.begin(), segments_.end(), is_input);
      if (present != inputs.size()) {
        // Retention dropped inputs meanwhile: the merged data is expired too.
        obsolete_files_.push_back(path);
        continue;
      }
      segments_.erase(std::remove_if(segments_.begin(), segments_.end(), is_input), segments_.end());
      for (const SegmentRef& in : inputs) obsolete_files_.push_back(in.reader->path());
      if (out.meta.rows > 0) {
        segments_.push_back(std::move(out));
      } else {
        obsolete_files_.push_back(path);
      }
      std::stable_sort(segments_.begin(), segments_.end(), [](const SegmentRef& a, const SegmentRef& b) {
        return a.meta.sequence < b.meta.sequence;
      });
    }
    GNOMON_LOG_INFO("compacted table {} partition {}: {} segments into 1", name_,
                    FormatRfc3339(pstart), inputs.size());
  }
  return Status::OK();
}

Status Table::DropPartitionsBefore(int64_t cutoff, int64_t partition_ns) {
  std::lock_guard maintenance(maintenance_mu_);
  auto expired = [&](const SegmentRef& s) {
    return s.meta.partition_start <= cutoff - partition_ns;
  };
  size_t dropped = 0;
  {
    std::unique_lock lock(mu_);
    size_t before = segments_.size() + damaged_.size();
    for (const SegmentRef& s : segments_) {
      if (expired(s)) obsolete_files_.push_back(s.reader->path());
    }
    segments_.erase(std::remove_if(segments_.begin(), segments_.end(), expired), segments_.end());
    // Damaged files age out like any other: their rows would have gone with the partition.
    auto damaged_expired = [&](const DamagedSegment& d) { return d.meta.partition_start <= cutoff - partition_ns; };
    for (const DamagedSegment& d : damaged_) {
      if (damaged_expired(d)) obsolete_files_.push_back(d.path);
    }
    std::erase_if(damaged_, damaged_expired);
    dropped = before - segments_.size() - damaged_.size();
    std::erase_if(last_flush_, [&](const auto& entry) { return entry.first <= cutoff - partition_ns; });
  }
  if (dropped == 0) return Status::OK();
  GNOMON_LOG_INFO("retention dropped {} segments of table {}", dropped, name_);
  // The cache may still hold rows of the dropped partitions (a series whose newest rows were
  // there would otherwise keep answering last-value queries with rows that no longer exist).
  return RebuildLastValues();
}

Status Table::DeleteRows(const std::vector<SeriesId>* series, int64_t min_time, int64_t max_time,
                         const std::function<uint64_t()>& next_file, bool skip_damaged) {
  std::lock_guard compaction(compaction_mu_);  // lock order: compaction_mu_, maintenance_mu_
  std::lock_guard maintenance(maintenance_mu_);
  // Rows in a damaged segment could not be removed: refuse before changing anything.
  if (!skip_damaged) GNOMON_RETURN_IF_ERROR(CheckUndamaged(min_time, max_time));
  std::vector<SegmentRef> affected;
  {
    std::unique_lock lock(mu_);
    active_->DeleteRows(series, min_time, max_time);
    for (const SegmentRef& s : segments_) {
      if (s.meta.max_time >= min_time && s.meta.min_time <= max_time) affected.push_back(s);
    }
  }
  auto selected = [&](SeriesId id) {
    return series == nullptr || std::binary_search(series->begin(), series->end(), id);
  };
  for (const SegmentRef& seg : affected) {
    bool touches = false;
    for (const SeriesMeta& m : seg.reader->index().series) {
      if (selected(m.id) && m.max_time >= min_time && m.min_time <= max_time) touches = true;
    }
    if (!touches) continue;
    // The segment rewritten series by series, less the deleted rows, as one segment of the same
    // partition and sequence.
    PartitionedSegmentWriter writer(env_, name_, SegmentColumns(), INT64_MAX, next_file,
                                    [this](uint64_t n) { return SegmentPath(n); });
    SortedSeries s;
    for (const SeriesMeta& m : seg.reader->index().series) {
      GNOMON_RETURN_IF_ERROR(ReadSeriesFromSegment(*seg.reader, m, INT64_MIN, INT64_MAX, &s));
      if (selected(m.id)) {
        std::vector<uint8_t> keep(s.times.size());
        for (size_t r = 0; r < s.times.size(); ++r) {
          keep[r] = s.times[r] < min_time || s.times[r] > max_time;
        }
        KeepFlagged(&s.times, keep);
        for (ColumnBuffer& c : s.columns) {
          KeepFlagged(&c.bits, keep);
          KeepFlagged(&c.strings, keep);
          KeepFlagged(&c.validity, keep);
        }
      }
      if (!s.times.empty()) GNOMON_RETURN_IF_ERROR(writer.Add(m.id, s));
    }
    std::vector<SegmentRef> outputs;
    GNOMON_RETURN_IF_ERROR(writer.Finish(seg.meta.sequence, dir_, stats_budget_, &outputs));
    GNOMON_FAULT_POINT("delete.after_rewrite");
    for (SegmentRef& out : outputs) out.meta.partition_start = seg.meta.partition_start;
    std::unique_lock lock(mu_);
    for (auto it = segments_.begin(); it != segments_.end(); ++it) {
      if (it->meta.file_number == seg.meta.file_number) {
        obsolete_files_.push_back(it->reader->path());
        segments_.erase(it);
        break;
      }
    }
    for (auto& s : outputs) segments_.push_back(std::move(s));
    std::stable_sort(segments_.begin(), segments_.end(), [](const SegmentRef& a, const SegmentRef& b) {
      return a.meta.sequence < b.meta.sequence;
    });
  }
  return RebuildLastValues();
}

Status Table::RebuildLastValues() {
  std::vector<SegmentRef> segments;
  std::vector<std::shared_ptr<Memtable>> mems;
  TableSchema schema;
  {
    std::shared_lock lock(mu_);
    segments = segments_;
    schema = schema_;
  }
  LastValueCache cache;
  // For each series, the segment holding its newest row (highest time, then sequence).
  struct Newest {
    const SegmentRef* segment = nullptr;
    uint32_t position = 0;  // in the segment's series table
    int64_t max_time = 0;
  };
  std::vector<Newest> best;
  for (const SegmentRef& seg : segments) {
    uint32_t i = 0;
    for (const SeriesMeta& m : seg.reader->index().series) {
      if (m.id >= best.size()) best.resize(m.id + 1);
      Newest& b = best[m.id];
      if (b.segment == nullptr || m.max_time >= b.max_time) b = {&seg, i, m.max_time};
      ++i;
    }
  }
  const size_t ncols = schema.fields().size();
  std::vector<uint64_t> bits(ncols);
  std::vector<std::string> strings(ncols);
  std::vector<uint8_t> valid(ncols);
  SortedSeries s;
  auto offer_last = [&](SeriesId id, const SortedSeries& data) {
    if (data.times.empty()) return;
    size_t last = data.times.size() - 1;
    std::fill(valid.begin(), valid.end(), 0);
    for (size_t c = 0; c < data.columns.size() && c < ncols; ++c) {
      const ColumnBuffer& col = data.columns[c];
      if (col.type == ValueType::kNull) continue;
      if (!col.validity.empty() && col.validity[last] == 0) continue;
      valid[c] = 1;
      if (col.type == ValueType::kString) strings[c] = col.strings[last]; else bits[c] = col.bits[last];
    }
    cache.OfferColumns(id, data.times[last], bits, strings, valid, schema);
  };
  for (SeriesId id = 0; id < best.size(); ++id) {
    if (best[id].segment == nullptr) continue;
    const SegmentReader& reader = *best[id].segment->reader;
    const SeriesMeta m = reader.index().series[best[id].position];
    GNOMON_RETURN_IF_ERROR(ReadSeriesFromSegment(reader, m, m.max_time, m.max_time, &s));
    offer_last(id, s);
  }
  std::vector<int> all(ncols);
  std::iota(all.begin(), all.end(), 0);
  {
    // Exclusive: readers call last_values_.Get under a shared lock, so the cache may only be
    // replaced under an exclusive one. The memtables are listed under the same lock that installs
    // the cache, so every write applied before the swap is in it, even one that went to a new
    // active memtable after a Freeze. (A memtable leaves frozen_ only by a flush, which
    // maintenance_mu_ excludes, so none is missed between the segment snapshot and here.)
    std::unique_lock lock(mu_);
    mems = frozen_;
    mems.push_back(active_);
    for (const auto& mem : mems) {
      for (SeriesId id : mem->SeriesIds()) {
        const SeriesState* buf = mem->Find(id);
        mem->ReadSorted(id, buf->max_time, buf->max_time, all, &s, SIZE_MAX, /*keep_page_order=*/false);
        offer_last(id, s);
      }
    }
    last_values_ = std::move(cache);
  }
  return Status::OK();
}

}  // namespace gnomon::storage
