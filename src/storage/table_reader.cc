// Table: read snapshots and scans (the TableReader the query layer sees).
#include <algorithm>
#include <type_traits>

#include "src/base/check.h"
#include "src/base/time_util.h"
#include "src/storage/row_selection.h"
#include "src/storage/scan_predicate.h"
#include "src/storage/segment_writer.h"
#include "src/storage/table.h"

namespace gnomon::storage {
namespace {

// The span of a statistics view: its series, rows and their first and last times.
void SetViewSpan(BlockStatsView* view, SeriesId id, uint32_t rows, int64_t first, int64_t last) {
  view->series = id;
  view->rows = rows;
  view->min_time = view->first_time = first;
  view->max_time = view->last_time = last;
}

// A scan source: one segment's rows of a series, or one memtable's.
struct Source {
  const SegmentReader* segment = nullptr;
  SeriesMeta meta;  // when segment is set
  const Memtable* memtable = nullptr;
  bool active = false;  // the active memtable: read under the table lock
  SeriesId id = 0;
  int64_t min_time = 0;
  int64_t max_time = 0;
};

template <typename T>
void ReverseIfAny(std::vector<T>* v) {
  std::reverse(v->begin(), v->end());
}

// Buffers one Scan call reuses from series to series (a scan of thousands of series would
// otherwise allocate them thousands of times).
struct ScanScratch {
  std::vector<Source> sources;
  std::vector<size_t> order;
  std::vector<int64_t> times;
  std::vector<DecodedColumn> cols;
  std::vector<SliceInfo> slices;
  std::vector<std::vector<ColumnStats>> slice_stats;
  std::vector<size_t> accepted;  // slices of the current group answered from statistics
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  std::vector<std::pair<uint32_t, uint32_t>> answered;  // row spans answered from statistics
  SortedSeries rows;
  std::vector<int> wanted_columns;  // the scanned columns that exist in the schema
  BlockStatsView view;
  DecodedColumn predicate_values;
  std::vector<ColumnStats> predicate_stats;  // the predicate column's slice statistics
  std::vector<size_t> read_columns;  // segment columns to decode for the current group
  std::vector<DecodedColumn*> read_outs;
  // Per segment, where the last lookup of a series ended (SeriesTable::FindFrom): the scan's ids
  // ascend, so the next lookup starts there. The prefetch, one series ahead, keeps its own.
  std::vector<size_t> segment_hints;
  std::vector<size_t> prefetch_hints;
};

// Removes from `ranges` (ascending, disjoint row spans of a group) the rows of every slice whose
// statistics of the predicate column show that no row can pass. Returns how many slices it dropped.
size_t DropFailingSlices(const std::vector<SliceInfo>& slices, const std::vector<ColumnStats>& stats, ValueType type,
                       const ScanPredicate& p, std::vector<std::pair<uint32_t, uint32_t>>* ranges) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  size_t si = 0;
  size_t dropped = 0;
  size_t last_dropped = SIZE_MAX;
  for (auto [b, e] : *ranges) {
    while (b < e) {
      while (si < slices.size() && slices[si].first_row + slices[si].rows <= b) ++si;
      if (si == slices.size()) {
        out.emplace_back(b, e);
        break;
      }
      const uint32_t slice_end = std::min(e, slices[si].first_row + slices[si].rows);
      if (StatsMayPass(stats[si], type, p)) {
        if (!out.empty() && out.back().second == b) out.back().second = slice_end;
        else out.emplace_back(b, slice_end);
      } else if (si != last_dropped) {
        ++dropped;
        last_dropped = si;
      }
      b = slice_end;
    }
  }
  *ranges = std::move(out);
  return dropped;
}

// Narrows `ranges` (ascending row spans of a group) to the spans around rows whose predicate
// column (`values`, the rows of `ranges` concatenated) may pass; spans closer than kJoinGap rows
// are joined, as decoding restarts at a chunk boundary for each span.
template <typename T>
void NarrowRanges(const T* values, const ScanPredicate& p, std::vector<std::pair<uint32_t, uint32_t>>* ranges) {
  constexpr uint32_t kJoinGap = 256;
  std::vector<std::pair<uint32_t, uint32_t>> out;
  size_t k = 0;
  for (const auto& [b, e] : *ranges) {
    for (uint32_t r = b; r < e; ++r, ++k) {
      if (!MayPass(values[k], p)) continue;
      if (!out.empty() && out.back().second + kJoinGap >= r && out.back().second >= b) {
        out.back().second = r + 1;
      } else {
        out.emplace_back(r, r + 1);
      }
    }
  }
  *ranges = std::move(out);
}

// Rows decoded to read rows [begin, end) of a block cut at `layout`: from the start of the chunk
// holding `begin` (the block's start when it has no seek points).
uint32_t DecodeCost(const encoding::ChunkLayout& layout, uint32_t begin, uint32_t end) {
  uint32_t start = 0;
  if (layout.enabled() && begin >= layout.first) {
    start = layout.first + (begin - layout.first) / layout.size * layout.size;
  }
  return end - start;
}

// How a scan reads the slices its rows [lo, hi) start and end inside, when the consumer takes
// statistics less rows (ScanConsumer::CanSubtractStats): each is read whichever way decodes the
// fewest rows, given the blocks' seek points.
struct PartialSlices {
  // The start slice's rows [lo, end) stand as statistics less its decoded rows
  // [lo - front_rows, lo): the whole slice's statistics, or, when front_head > 0, those of its
  // rows past its first front_head rows (its head, see ColumnStats::head_isum).
  bool front = false;
  uint32_t front_head = 0;
  uint32_t front_rows = 0;
  // The end slice's rows [first, hi) stand as the whole slice's statistics less its decoded rows
  // [hi, hi + back_rows); or, when back_head > 0, as the statistics of its first back_head rows
  // plus its rows [first + back_head, hi), which are delivered as rows.
  bool back = false;
  uint32_t back_head = 0;
  uint32_t back_rows = 0;
};

// Rows before slice si's inner seek point when every scanned column's statistics carry their sum
// there (0: they do not, or there is none).
uint32_t UsableHeadRows(const std::vector<std::vector<ColumnStats>>& slice_stats, const std::vector<int>& column_ids,
                        size_t seg_columns, const std::vector<SliceInfo>& slices, uint32_t group_rows, size_t si) {
  for (size_t i = 0; i < column_ids.size(); ++i) {
    const int c = column_ids[i];
    if (c < 0 || static_cast<size_t>(c) >= seg_columns) continue;
    const ColumnStats& s = slice_stats[i][si];
    if (s.count > 0 && !s.has_head) return 0;
  }
  return SliceHeadRows(ChunkLayoutForSlices(slices, group_rows), slices[si]);
}

PartialSlices PlanPartialSlices(const SegmentReader& seg, const RowGroupMeta& group, const std::vector<int>& column_ids,
                                size_t seg_columns, const std::vector<SliceInfo>& slices,
                                const std::vector<std::vector<ColumnStats>>& slice_stats, size_t start_si,
                                size_t end_si, uint32_t lo, uint32_t hi) {
  // The columns of a group are cut at the same rows: the first scanned column's seek points
  // stand for all.
  encoding::ChunkLayout layout;
  for (int c : column_ids) {
    if (c < 0 || static_cast<size_t>(c) >= seg_columns) continue;
    layout = seg.ChunkLayoutOf(group, static_cast<size_t>(c));
    break;
  }
  constexpr uint32_t kNever = UINT32_MAX;
  PartialSlices plan;
  if (start_si != SIZE_MAX) {
    const SliceInfo& sl = slices[start_si];
    const uint32_t end = sl.first_row + sl.rows;
    if (lo > sl.first_row && lo < end && end <= hi) {
      const uint32_t head = UsableHeadRows(slice_stats, column_ids, seg_columns, slices, group.rows, start_si);
      const uint32_t mid = sl.first_row + head;
      const uint32_t direct = DecodeCost(layout, lo, end);
      const uint32_t whole = DecodeCost(layout, sl.first_row, lo);
      const uint32_t tail = head > 0 && lo >= mid ? DecodeCost(layout, mid, lo) : kNever;
      if (tail < direct && tail <= whole) {
        plan.front = true;
        plan.front_head = head;
        plan.front_rows = lo - mid;
      } else if (whole < direct) {
        plan.front = true;
        plan.front_rows = lo - sl.first_row;
      }
    }
  }
  if (end_si != SIZE_MAX) {
    const SliceInfo& sl = slices[end_si];
    const uint32_t end = sl.first_row + sl.rows;
    if (hi > sl.first_row && hi < end && sl.first_row >= lo) {
      const uint32_t head = UsableHeadRows(slice_stats, column_ids, seg_columns, slices, group.rows, end_si);
      const uint32_t mid = sl.first_row + head;
      const uint32_t direct = DecodeCost(layout, sl.first_row, hi);
      const uint32_t whole = DecodeCost(layout, hi, end);
      const uint32_t with_head = head > 0 && hi >= mid ? DecodeCost(layout, mid, hi) : kNever;
      if (with_head < direct && with_head <= whole) {
        plan.back = true;
        plan.back_head = head;
      } else if (whole < direct) {
        plan.back = true;
        plan.back_rows = end - hi;
      }
    }
  }
  return plan;
}

void ReverseColumn(DecodedColumn* c) {
  ReverseIfAny(&c->i64);
  ReverseIfAny(&c->f64);
  ReverseIfAny(&c->u64);
  ReverseIfAny(&c->b);
  ReverseIfAny(&c->str);
  ReverseIfAny(&c->validity);
}

}  // namespace

class TableSnapshot final : public TableReader {
 public:
  explicit TableSnapshot(std::shared_ptr<Table> table) : table_(std::move(table)) {
    info_ = table_->Info();
    std::shared_lock lock(table_->mu_);
    schema_ = table_->schema_;
    segments_ = table_->segments_;
    damaged_ = table_->damaged_;
    frozen_ = table_->frozen_;
    active_ = table_->active_;
    // The active memtable keeps taking writes after this point; the snapshot reads each series
    // only up to its length now, so it sees whole write batches (Table::Apply runs under the
    // exclusive lock) and nothing newer.
    active_view_ = active_->OpenView();
    active_edits_ = active_->edits();
    series_count_ = table_->registry_->size();
  }

  const TableInfo& Info() const override { return info_; }
  size_t SeriesCount() const override { return series_count_; }

  TagSet SeriesTags(SeriesId id) const override {
    TagSet tags;
    for (const index::TagRef& t : table_->registry_->Tags(id)) {
      tags.push_back(Tag{std::string(t.key), std::string(t.value)});
    }
    return tags;
  }

  std::string_view SeriesTag(SeriesId id, std::string_view key) const override {
    return table_->registry_->TagValue(id, key);
  }

  void SeriesTagColumns(std::span<const SeriesId> ids, std::span<const std::string> keys,
                        std::string_view* out, uint32_t* value_ids) const override {
    static_assert(kNoTagValue == index::SeriesIndex::kNoValue);
    table_->registry_->TagColumns(ids, keys, out, value_ids);
  }

  std::vector<SeriesId> SeriesWithTag(std::string_view key, std::string_view value) const override {
    std::vector<SeriesId> ids;
    table_->registry_->AppendSeriesWithTag(key, value, &ids);
    // Series created after the snapshot are not part of it.
    while (!ids.empty() && ids.back() >= series_count_) ids.pop_back();
    return ids;
  }

  std::vector<std::string> TagValues(std::string_view key) const override {
    return table_->registry_->TagValues(key);
  }

  void TimeRange(int64_t* min_time, int64_t* max_time) const override {
    *min_time = INT64_MAX;
    *max_time = INT64_MIN;
    for (const SegmentRef& s : segments_) {
      *min_time = std::min(*min_time, s.meta.min_time);
      *max_time = std::max(*max_time, s.meta.max_time);
    }
    auto mem = [&](const Memtable& m) {
      if (m.empty()) return;
      *min_time = std::min(*min_time, m.min_time());
      *max_time = std::max(*max_time, m.max_time());
    };
    for (const auto& f : frozen_) mem(*f);
    std::shared_lock lock(table_->mu_);
    mem(*active_);
  }

  // A series whose newest row sits in a damaged segment would answer an older row.
  Status CheckLastValues() const override {
    if (damaged_.empty()) return Status::OK();
    const DamagedSegment& d = damaged_.front();
    return Status::Corruption("table " + info_.name + ": last values unavailable while segment " + d.path +
                              " is damaged: " + d.error.message());
  }

  bool LastRowOf(SeriesId id, LastRow* out) const override {
    std::shared_lock lock(table_->mu_);
    return table_->last_values_.Get(id, table_->schema_, out);
  }

  void LastValuesOf(std::span<const SeriesId> ids, std::span<const int> fields,
                    LastValues* out) const override {
    std::shared_lock lock(table_->mu_);
    table_->last_values_.GetColumns(ids, fields, table_->schema_, out);
  }

  Status Scan(const ScanSpec& spec, ScanConsumer* consumer, ScanMetrics* metrics) const override;

 private:
  Status ScanSeries(SeriesId id, const ScanSpec& spec, const std::vector<int>& column_ids,
                    ScanConsumer* consumer, ScanMetrics* metrics, ScanScratch* scratch, bool* stop) const;
  // Starts fetching the blocks series `id` will read in spec's range (SegmentReader::PrefetchGroup).
  void Prefetch(SeriesId id, const ScanSpec& spec, const std::vector<int>& column_ids,
                std::vector<size_t>* hints) const {
    for (size_t k = 0; k < segments_.size(); ++k) {
      const SegmentRef& seg = segments_[k];
      if (seg.meta.max_time < spec.min_time || seg.meta.min_time > spec.max_time) continue;
      const std::optional<SeriesMeta> meta = seg.reader->FindSeries(id, &(*hints)[k]);
      if (!meta) continue;
      for (uint32_t g = 0; g < meta->num_groups; ++g) {
        const RowGroupMeta group = seg.reader->group(*meta, g);
        if (group.max_time >= spec.min_time && group.min_time <= spec.max_time) {
          seg.reader->PrefetchGroup(group, column_ids, spec.min_time, spec.max_time);
        }
      }
    }
  }
  // Delivers rows [from, size - back) of times/cols as one batch.
  bool Emit(SeriesId id, const ScanSpec& spec, std::vector<int64_t>* times,
            std::vector<DecodedColumn>* cols, ScanConsumer* consumer, ScanMetrics* metrics,
            size_t from = 0, size_t back = 0) const;
  void ReadMemtable(const Source& src, int64_t min_time, int64_t max_time,
                    const std::vector<int>& columns, SortedSeries* out,
                    const Memtable::RowFilter* filter = nullptr) const {
    if (src.active) {
      std::shared_lock lock(table_->mu_);
      src.memtable->ReadSorted(src.id, min_time, max_time, columns, out, ActiveLimit(src.id), true, filter);
    } else {
      src.memtable->ReadSorted(src.id, min_time, max_time, columns, out, SIZE_MAX, true, filter);
    }
  }
  // Reads a memtable source in time order, offering its pages' statistics to the consumer in
  // place of their rows as segments offer their hour slices (pages hold one hour each); *out gets
  // the rows of the pages not taken. False when the series is out of order (nothing done).
  bool ReadMemtableOfferingPages(const Source& src, const ScanSpec& spec, const std::vector<int>& column_ids,
                                 ScanConsumer* consumer, ScanMetrics* metrics, ScanScratch* scratch,
                                 SortedSeries* out, const Memtable::RowFilter* filter) const {
    auto can_use = [&](int64_t first, int64_t last) { return consumer->CanUseStats(first, last); };
    auto offer = [&](int64_t first, int64_t last, uint32_t n, const std::vector<ColumnStats>& stats) {
      BlockStatsView& view = scratch->view;
      SetViewSpan(&view, src.id, n, first, last);
      view.columns = stats;
      if (!consumer->OnBlockStats(view)) return false;
      ++metrics->blocks_from_stats;
      return true;
    };
    if (src.active) {
      std::shared_lock lock(table_->mu_);
      return src.memtable->ReadSortedOfferingPages(src.id, spec.min_time, spec.max_time, column_ids,
                                                   ActiveLimit(src.id), can_use, offer, out, filter);
    }
    return src.memtable->ReadSortedOfferingPages(src.id, spec.min_time, spec.max_time, column_ids, SIZE_MAX,
                                                 can_use, offer, out, filter);
  }
  // Rows of series `id` in the active memtable that belong to this snapshot.
  // REQUIRES: table_->mu_ held (shared). After a DeleteRows compacted the buffers in place the
  // counts no longer line up, and the series is read as it is now.
  size_t ActiveLimit(SeriesId id) const {
    if (active_->edits() != active_edits_) return SIZE_MAX;
    return active_->RowsAt(id, active_view_);
  }

  std::shared_ptr<Table> table_;
  TableInfo info_;
  TableSchema schema_;
  std::vector<SegmentRef> segments_;
  std::vector<DamagedSegment> damaged_;
  std::vector<std::shared_ptr<Memtable>> frozen_;
  std::shared_ptr<Memtable> active_;
  Memtable::View active_view_;  // of active_, as the snapshot was taken (after active_: closes first)
  uint64_t active_edits_ = 0;
  size_t series_count_ = 0;
};


namespace {

// Converts memtable-style columns to decoded columns for the requested column ids.
void ToDecoded(SortedSeries* rows, const std::vector<int>& column_ids, const TableSchema& schema,
               std::vector<DecodedColumn>* out) {
  out->resize(column_ids.size());
  const size_t n = rows->times.size();
  for (size_t i = 0; i < column_ids.size(); ++i) {
    int c = column_ids[i];
    DecodedColumn& dst = (*out)[i];
    if (c < 0) {
      dst.AssignNulls(ValueType::kNull, n);
      continue;
    }
    const ColumnBuffer* src = static_cast<size_t>(c) < rows->columns.size() ? &rows->columns[c] : nullptr;
    if (src != nullptr && src->type == ValueType::kNull) src = nullptr;
    dst.type = schema.fields()[c].type;
    dst.AssignFrom(src, n);
  }
}

}  // namespace

bool TableSnapshot::Emit(SeriesId id, const ScanSpec& spec, std::vector<int64_t>* times,
                         std::vector<DecodedColumn>* cols, ScanConsumer* consumer,
                         ScanMetrics* metrics, size_t from, size_t back) const {
  if (times->size() <= from + back) return true;
  if (spec.newest_first) {
    GNOMON_CHECK(from == 0 && back == 0);
    std::reverse(times->begin(), times->end());
    for (DecodedColumn& c : *cols) ReverseColumn(&c);
  }
  ColumnBatch batch;
  batch.series = id;
  batch.rows = times->size() - from - back;
  batch.times = times->data() + from;
  batch.columns.reserve(cols->size());
  for (const DecodedColumn& c : *cols) batch.columns.push_back(c.View(from));
  metrics->rows_produced += batch.rows;
  return consumer->OnBatch(batch);
}

Status TableSnapshot::ScanSeries(SeriesId id, const ScanSpec& spec,
                                 const std::vector<int>& column_ids, ScanConsumer* consumer,
                                 ScanMetrics* metrics, ScanScratch* scratch, bool* stop) const {
  std::vector<Source>& sources = scratch->sources;  // oldest first (precedence ascending)
  sources.clear();
  for (size_t k = 0; k < segments_.size(); ++k) {
    const SegmentRef& seg = segments_[k];
    if (seg.meta.max_time < spec.min_time || seg.meta.min_time > spec.max_time) continue;
    const std::optional<SeriesMeta> meta = seg.reader->FindSeries(id, &scratch->segment_hints[k]);
    if (!meta || meta->max_time < spec.min_time || meta->min_time > spec.max_time) continue;
    Source s;
    s.segment = seg.reader.get();
    s.meta = *meta;
    s.id = id;
    s.min_time = meta->min_time;
    s.max_time = meta->max_time;
    sources.push_back(s);
  }
  auto add_memtable = [&](const Memtable* mem, bool active) {
    std::shared_lock<std::shared_mutex> lock;
    if (active) lock = std::shared_lock(table_->mu_);
    const size_t limit = active ? ActiveLimit(id) : SIZE_MAX;
    int64_t min_time = 0, max_time = 0;
    if (!mem->PrefixTimeRange(id, limit, &min_time, &max_time)) return;
    if (max_time < spec.min_time || min_time > spec.max_time) return;
    Source s;
    s.memtable = mem;
    s.active = active;
    s.id = id;
    s.min_time = min_time;
    s.max_time = max_time;
    sources.push_back(s);
  };
  for (const auto& f : frozen_) add_memtable(f.get(), false);
  add_memtable(active_.get(), true);
  if (sources.empty()) return Status::OK();
  ++metrics->series_scanned;

  // Sources whose time ranges are disjoint are read one after another, in time order; any
  // overlap means rows may repeat a time, so everything is merged first.
  std::vector<size_t>& order = scratch->order;
  order.resize(sources.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return sources[a].min_time < sources[b].min_time; });
  bool overlap = false;
  for (size_t i = 1; i < order.size(); ++i) {
    if (sources[order[i]].min_time <= sources[order[i - 1]].max_time) overlap = true;
  }

  std::vector<int64_t>& times = scratch->times;
  std::vector<DecodedColumn>& cols = scratch->cols;
  cols.resize(column_ids.size());
  std::vector<SliceInfo>& slices = scratch->slices;
  std::vector<std::vector<ColumnStats>>& slice_stats = scratch->slice_stats;
  std::vector<size_t>& accepted = scratch->accepted;
  std::vector<std::pair<uint32_t, uint32_t>>& ranges = scratch->ranges;
  SortedSeries& rows = scratch->rows;

  if (overlap) {
    // Rows need merging only where sources overlap. Before the second source (by start) begins,
    // the first holds every row; after the first source (by end) ends, one source fewer remains.
    // Those parts are read on their own, the ordinary way (statistics, partial decoding), and only
    // the rest is merged. (After a restart the newest flush often overlaps the tail of a large
    // compacted segment by a minute or two; merging would decode every group of both.)
    auto scan_split = [&](int64_t split) -> Status {  // [min_time, split) then [split, max_time]
      ScanSpec head = spec;  // spec.series is empty here (see Scan): copies are cheap
      head.max_time = split - 1;
      ScanSpec tail = spec;
      tail.min_time = split;
      const ScanSpec& first = spec.newest_first ? tail : head;
      const ScanSpec& second = spec.newest_first ? head : tail;
      const uint64_t scanned = metrics->series_scanned;  // this series counts once
      GNOMON_RETURN_IF_ERROR(ScanSeries(id, first, column_ids, consumer, metrics, scratch, stop));
      if (!*stop) GNOMON_RETURN_IF_ERROR(ScanSeries(id, second, column_ids, consumer, metrics, scratch, stop));
      metrics->series_scanned = scanned;
      return Status::OK();
    };
    const int64_t second_start = sources[order[1]].min_time;
    if (second_start > spec.min_time && second_start <= spec.max_time) return scan_split(second_start);
    int64_t first_end = INT64_MAX;
    for (const Source& src : sources) first_end = std::min(first_end, src.max_time);
    if (first_end >= spec.min_time && first_end < spec.max_time) return scan_split(first_end + 1);
    // Only the scanned columns are read and merged (a column's value never depends on another's).
    scratch->wanted_columns.clear();
    for (int c : column_ids) {
      if (c >= 0) scratch->wanted_columns.push_back(c);
    }
    std::vector<SortedSeries> parts;
    for (const Source& src : sources) {
      SortedSeries part;
      if (src.segment != nullptr) {
        ++metrics->blocks_decoded;
        GNOMON_RETURN_IF_ERROR(
            ReadSeriesFromSegment(*src.segment, src.meta, spec.min_time, spec.max_time, &part, &column_ids));
      } else {
        ReadMemtable(src, spec.min_time, spec.max_time, scratch->wanted_columns, &part);
      }
      parts.push_back(std::move(part));
    }
    MergeSortedSeries(parts, schema_, &rows);
    ToDecoded(&rows, column_ids, schema_, &cols);
    times = std::move(rows.times);
    if (!Emit(id, spec, &times, &cols, consumer, metrics)) *stop = true;
    return Status::OK();
  }

  if (spec.newest_first) std::reverse(order.begin(), order.end());
  // The sources do not overlap here, so a memtable may leave out rows failing the predicate, as
  // the segments below do.
  Memtable::RowFilter row_filter;
  const Memtable::RowFilter* filter = nullptr;
  if (spec.predicate.column >= 0 && column_ids[spec.predicate.column] >= 0) {
    row_filter.column = static_cast<ColumnId>(column_ids[spec.predicate.column]);
    row_filter.predicate = spec.predicate;
    filter = &row_filter;
  }
  for (size_t oi : order) {
    const Source& src = sources[oi];
    if (src.memtable != nullptr) {
      if (!spec.offer_stats || spec.newest_first ||
          !ReadMemtableOfferingPages(src, spec, column_ids, consumer, metrics, scratch, &rows, filter)) {
        ReadMemtable(src, spec.min_time, spec.max_time, column_ids, &rows, filter);
      }
      if (rows.times.empty()) continue;
      ToDecoded(&rows, column_ids, schema_, &cols);
      times = std::move(rows.times);
      if (!Emit(id, spec, &times, &cols, consumer, metrics)) {
        *stop = true;
        return Status::OK();
      }
      continue;
    }
    const SegmentReader& seg = *src.segment;
    const size_t seg_columns = seg.index().columns.size();
    for (uint32_t k = 0; k < src.meta.num_groups; ++k) {
      uint32_t g = spec.newest_first ? src.meta.num_groups - 1 - k : k;
      const RowGroupMeta group = seg.group(src.meta, g);
      if (group.max_time < spec.min_time || group.min_time > spec.max_time) {
        ++metrics->blocks_pruned;
        continue;
      }
      // Zone maps: a group whose predicate column cannot pass anywhere is skipped unread.
      const int pc = spec.predicate.column >= 0 ? column_ids[spec.predicate.column] : -1;
      const bool dense_predicate = pc >= 0 && static_cast<size_t>(pc) < seg_columns &&
                                   seg.chunk(group, pc).presence == ColumnChunkMeta::kDense;
      const ValueType predicate_type = dense_predicate ? seg.index().columns[pc].type : ValueType::kNull;
      if (dense_predicate && !StatsMayPass(seg.chunk(group, pc).stats, predicate_type, spec.predicate)) {
        ++metrics->blocks_pruned;
        continue;
      }
      const bool whole = group.min_time >= spec.min_time && group.max_time <= spec.max_time;
      // A packed series' chunk statistics are its pack's: only its rows describe it.
      if (spec.offer_stats && whole && !group.packed()) {
        BlockStatsView view;
        SetViewSpan(&view, id, group.rows, group.min_time, group.max_time);
        view.columns.resize(column_ids.size());
        for (size_t i = 0; i < column_ids.size(); ++i) {
          int c = column_ids[i];
          if (c >= 0 && static_cast<size_t>(c) < seg_columns) view.columns[i] = seg.chunk(group, c).stats;
        }
        if (consumer->OnBlockStats(view)) {
          ++metrics->blocks_from_stats;
          continue;
        }
      }
      // Hour slices inside the range are offered one by one; only rows of the slices not taken
      // (partial ones at the range's ends, or declined) are decoded and delivered.
      accepted.clear();
      bool slices_read = false;
      // The slices the range starts and ends inside, when their statistics less the rows outside
      // the range may stand for their rows inside it (chosen below if that decodes fewer rows).
      size_t start_si = SIZE_MAX, end_si = SIZE_MAX;
      if (spec.offer_stats && group.slices_length > 0) {
        GNOMON_RETURN_IF_ERROR(seg.ReadSlices(group, &slices));
        slices_read = true;
        bool all_taken = true;
        bool loaded = false;  // slice_stats hold this group's statistics
        const bool can_subtract = !spec.newest_first && spec.predicate.column < 0 && consumer->CanSubtractStats();
        // Slices outside the range are never offered: their statistics stay unread.
        size_t needed = slices.size();
        while (needed > 0 && slices[needed - 1].start > spec.max_time) --needed;
        size_t first_needed = 0;
        while (first_needed < needed && slices[first_needed].start + (kSliceWidthNs - 1) < spec.min_time) {
          ++first_needed;
        }
        auto load_stats = [&]() -> Status {  // once per group, at the first slice that needs them
          if (loaded) return Status::OK();
          loaded = true;
          slice_stats.resize(column_ids.size());
          for (size_t i = 0; i < column_ids.size(); ++i) {
            int c = column_ids[i];
            if (c >= 0 && static_cast<size_t>(c) < seg_columns) {
              GNOMON_RETURN_IF_ERROR(
                  seg.ReadSliceStats(group, c, slices.size(), &slice_stats[i], needed, first_needed));
            } else {
              slice_stats[i].assign(slices.size(), ColumnStats{});
            }
          }
          return Status::OK();
        };
        for (size_t si = 0; si < slices.size(); ++si) {
          const SliceInfo& sl = slices[si];
          const int64_t lo_t = std::max(sl.start, group.min_time);
          const int64_t hi_t = std::min(sl.start + (kSliceWidthNs - 1), group.max_time);
          if (hi_t < spec.min_time || lo_t > spec.max_time) continue;
          const bool starts_inside = lo_t < spec.min_time && hi_t <= spec.max_time;
          const bool ends_inside = lo_t >= spec.min_time && hi_t > spec.max_time;
          if ((starts_inside || ends_inside) && can_subtract && consumer->CanUseStats(lo_t, hi_t)) {
            (starts_inside ? start_si : end_si) = si;
            all_taken = false;
            GNOMON_RETURN_IF_ERROR(load_stats());
            continue;
          }
          if (lo_t < spec.min_time || hi_t > spec.max_time || !consumer->CanUseStats(lo_t, hi_t)) {
            all_taken = false;
            continue;
          }
          GNOMON_RETURN_IF_ERROR(load_stats());
          BlockStatsView& view = scratch->view;
          SetViewSpan(&view, id, sl.rows, lo_t, hi_t);
          view.columns.resize(column_ids.size());
          for (size_t i = 0; i < column_ids.size(); ++i) view.columns[i] = slice_stats[i][si];
          if (consumer->OnBlockStats(view)) {
            accepted.push_back(si);
          } else {
            all_taken = false;
          }
        }
        if (all_taken) {
          ++metrics->blocks_from_stats;
          continue;
        }
      }
      ++metrics->blocks_decoded;
      // The rows in the scan's range: from the time step when the times are evenly spaced,
      // else by searching the decoded times.
      int64_t first_time = 0, step = 0;
      const bool even = seg.EvenTimes(group, &first_time, &step);
      uint32_t lo, hi;
      if (even) {
        SegmentReader::EvenRowRange(group, first_time, step, spec.min_time, spec.max_time, &lo, &hi);
      } else {
        GNOMON_RETURN_IF_ERROR(seg.ReadTimes(group, &times));
        lo = static_cast<uint32_t>(std::lower_bound(times.begin(), times.end(), spec.min_time) - times.begin());
        hi = static_cast<uint32_t>(std::upper_bound(times.begin(), times.end(), spec.max_time) - times.begin());
      }
      // The rows to deliver: those in the scan's range, less the row spans answered from
      // statistics (ascending). Only these rows are decoded where the blocks allow it.
      // The slices the range starts and ends inside may be read as statistics less rows outside
      // the range, or (the end slice) as its head's statistics plus its rows past the head
      // (PlanPartialSlices). Rows to subtract go first (last) among the decoded rows, and to
      // OnBlockStatsLess, not to Emit.
      PartialSlices partial;
      if (start_si != SIZE_MAX || end_si != SIZE_MAX) {
        partial = PlanPartialSlices(seg, group, column_ids, seg_columns, slices, slice_stats, start_si, end_si, lo, hi);
      }
      std::vector<std::pair<uint32_t, uint32_t>>& answered = scratch->answered;
      answered.clear();
      if (partial.front) answered.emplace_back(lo, slices[start_si].first_row + slices[start_si].rows);
      for (size_t si : accepted) {
        answered.emplace_back(std::max(slices[si].first_row, lo), std::min(slices[si].first_row + slices[si].rows, hi));
      }
      if (partial.back) {
        const uint32_t first = slices[end_si].first_row;
        answered.emplace_back(first, partial.back_head > 0 ? first + partial.back_head : hi);
      }
      ranges.clear();
      if (partial.front_rows > 0) ranges.emplace_back(lo - partial.front_rows, lo);
      uint32_t at = lo;
      for (const auto& [b, e] : answered) {
        if (b >= e) continue;
        if (at < b) ranges.emplace_back(at, b);
        at = std::max(at, e);
      }
      if (at < hi) ranges.emplace_back(at, hi);
      if (partial.back_rows > 0) ranges.emplace_back(hi, hi + partial.back_rows);
      if (ranges.empty() && !partial.front && !partial.back) continue;
      // A predicate on a fully present numeric column: leave out the hour slices its statistics
      // rule out, decode it over the rest, then the other columns only around rows that may pass.
      if (dense_predicate) {
        if (group.slices_length > 0) {
          if (!slices_read) GNOMON_RETURN_IF_ERROR(seg.ReadSlices(group, &slices));
          GNOMON_RETURN_IF_ERROR(seg.ReadSliceStats(group, pc, slices.size(), &scratch->predicate_stats));
          // Each slice ruled out counts as a pruned block.
          metrics->blocks_pruned +=
              DropFailingSlices(slices, scratch->predicate_stats, predicate_type, spec.predicate, &ranges);
          if (ranges.empty()) continue;
        }
        DecodedColumn& pv = scratch->predicate_values;
        GNOMON_RETURN_IF_ERROR(seg.ReadColumnRows(group, pc, ranges, &pv));
        switch (pv.type) {
          case ValueType::kInt64: NarrowRanges(pv.i64.data(), spec.predicate, &ranges); break;
          case ValueType::kUInt64: NarrowRanges(pv.u64.data(), spec.predicate, &ranges); break;
          case ValueType::kFloat64: NarrowRanges(pv.f64.data(), spec.predicate, &ranges); break;
          default: break;
        }
        if (ranges.empty()) {
          ++metrics->blocks_pruned;
          continue;
        }
      }
      if (even) {
        times.clear();
        for (const auto& [b, e] : ranges) {
          for (uint32_t r = b; r < e; ++r) times.push_back(first_time + static_cast<int64_t>(r) * step);
        }
      } else if (ranges.size() != 1 || ranges[0].first != 0 || ranges[0].second != times.size()) {
        size_t kept = 0;
        for (const auto& [b, e] : ranges) {
          std::copy(times.begin() + b, times.begin() + e, times.begin() + kept);
          kept += e - b;
        }
        times.resize(kept);
      }
      scratch->read_columns.clear();
      scratch->read_outs.clear();
      for (size_t i = 0; i < column_ids.size(); ++i) {
        int c = column_ids[i];
        if (c < 0) {
          cols[i].AssignNulls(ValueType::kNull, times.size());
        } else if (static_cast<size_t>(c) >= seg_columns) {
          cols[i].AssignNulls(schema_.fields()[c].type, times.size());
        } else {
          scratch->read_columns.push_back(static_cast<size_t>(c));
          scratch->read_outs.push_back(&cols[i]);
        }
      }
      if (!ranges.empty()) {
        GNOMON_RETURN_IF_ERROR(seg.ReadColumnsRows(group, scratch->read_columns, ranges, scratch->read_outs));
      }
      // Statistics of slice si (all of it, or its head: its first `head` rows, or its tail: the
      // rest) less its decoded rows at [from, from + rows). A head's or tail's statistics hold
      // exact counts and sums (what a consumer that subtracts uses); their minimum and maximum
      // are the whole slice's, bounds only.
      enum class Part { kWhole, kHead, kTail };
      auto stats_less = [&](size_t si, Part part, uint32_t head, size_t from, uint32_t rows) {
        const SliceInfo& sl = slices[si];
        BlockStatsView& view = scratch->view;
        SetViewSpan(&view, id, part == Part::kWhole ? sl.rows : part == Part::kHead ? head : sl.rows - head,
                    std::max(sl.start, group.min_time), std::min(sl.start + (kSliceWidthNs - 1), group.max_time));
        view.columns.resize(column_ids.size());
        for (size_t i = 0; i < column_ids.size(); ++i) {
          ColumnStats s = slice_stats[i][si];
          if (part != Part::kWhole && s.count > 0) {  // dense: a part's count is its rows
            s.count = view.rows;
            s.isum = part == Part::kHead ? s.head_isum : s.isum - s.head_isum;
            s.sum = static_cast<double>(s.isum);
          }
          view.columns[i] = s;
        }
        ColumnBatch less;
        less.series = id;
        less.rows = rows;
        less.times = times.data() + from;
        less.columns.reserve(cols.size());
        for (const DecodedColumn& c : cols) less.columns.push_back(c.View(from));
        consumer->OnBlockStatsLess(view, less);
      };
      if (partial.front) {
        stats_less(start_si, partial.front_head > 0 ? Part::kTail : Part::kWhole, partial.front_head, 0,
                   partial.front_rows);
      }
      if (partial.back) {
        stats_less(end_si, partial.back_head > 0 ? Part::kHead : Part::kWhole, partial.back_head,
                   times.size() - partial.back_rows, partial.back_rows);
      }
      if (ranges.empty()) continue;
      if (!Emit(id, spec, &times, &cols, consumer, metrics, partial.front_rows, partial.back_rows)) {
        *stop = true;
        return Status::OK();
      }
    }
  }
  return Status::OK();
}

Status TableSnapshot::Scan(const ScanSpec& spec, ScanConsumer* consumer, ScanMetrics* metrics) const {
  ScanMetrics local;
  if (metrics == nullptr) metrics = &local;
  std::vector<int> column_ids;
  column_ids.reserve(spec.columns.size());
  for (const std::string& name : spec.columns) column_ids.push_back(schema_.FindField(name));
  if (const DamagedSegment* d = FirstDamagedIn(damaged_, spec.min_time, spec.max_time)) {
    return Status::Corruption("table " + info_.name + ": the scan of " + FormatRfc3339(spec.min_time) + " .. " +
                              FormatRfc3339(spec.max_time) + " needs damaged segment " + d->path + ": " +
                              d->error.message());
  }
  metrics->segments_opened += segments_.size();
  bool stop = false;
  ScanScratch scratch;
  scratch.segment_hints.assign(segments_.size(), 0);
  scratch.prefetch_hints.assign(segments_.size(), 0);
  ScanSpec one = spec;  // the per-series scan needs everything but the series list
  one.series.clear();
  for (size_t k = 0; k < spec.series.size(); ++k) {
    const SeriesId id = spec.series[k];
    if (id >= series_count_) continue;
    if (k + 1 < spec.series.size()) Prefetch(spec.series[k + 1], spec, column_ids, &scratch.prefetch_hints);
    GNOMON_RETURN_IF_ERROR(ScanSeries(id, one, column_ids, consumer, metrics, &scratch, &stop));
    if (stop) break;
  }
  return Status::OK();
}

std::unique_ptr<TableReader> Table::NewReader() {
  return std::make_unique<TableSnapshot>(shared_from_this());
}

}  // namespace gnomon::storage
