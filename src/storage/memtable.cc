#include "src/storage/memtable.h"

#include <algorithm>
#include <bit>
#include <numeric>

#include "src/base/time_util.h"
#include "src/storage/row_selection.h"
#include "src/storage/scan_predicate.h"
#include "src/storage/segment_format.h"

namespace gnomon::storage {
namespace {

// Sorts `order` (positions into `times`) by time, stably. Out-of-order rows usually come from
// concurrent writers' batches applied out of turn: the positions form a few ascending runs.
void SortByTime(const int64_t* times, std::vector<uint32_t>* order_ptr) {
  std::vector<uint32_t>& order = *order_ptr;
  // Merge the runs (stable) instead of sorting from scratch.
  auto by_time = [&](uint32_t a, uint32_t b) { return times[a] < times[b]; };
  std::vector<size_t> runs;  // start of each ascending run in `order`
  for (size_t r = 0; r < order.size(); ++r) {
    if (r == 0 || times[order[r]] < times[order[r - 1]]) runs.push_back(r);
  }
  runs.push_back(order.size());
  // Concurrent writers' batches usually hold disjoint time spans: then the runs, put in order of
  // their first times, follow one another, and concatenating them sorts the rows.
  std::vector<size_t> by_start(runs.size() - 1);
  for (size_t k = 0; k < by_start.size(); ++k) by_start[k] = k;
  std::sort(by_start.begin(), by_start.end(),
            [&](size_t a, size_t b) { return times[order[runs[a]]] < times[order[runs[b]]]; });
  bool disjoint = true;
  for (size_t k = 1; k < by_start.size() && disjoint; ++k) {
    disjoint = times[order[runs[by_start[k - 1] + 1] - 1]] < times[order[runs[by_start[k]]]];
  }
  runs.pop_back();
  if (disjoint && by_start.size() > 1) {
    std::vector<uint32_t> sorted;
    sorted.reserve(order.size());
    for (size_t k : by_start) {
      const size_t end = k + 1 < runs.size() ? runs[k + 1] : order.size();
      sorted.insert(sorted.end(), order.begin() + runs[k], order.begin() + end);
    }
    order = std::move(sorted);
  } else if (runs.size() > 16) {
    std::stable_sort(order.begin(), order.end(), by_time);
  } else {
    runs.push_back(order.size());
    for (size_t k = 1; k + 1 < runs.size(); ++k) {
      std::inplace_merge(order.begin(), order.begin() + runs[k], order.begin() + runs[k + 1], by_time);
    }
  }
}

}  // namespace

size_t Memtable::ApproximateBytes() const {
  return pages_.bytes() + page_order_bytes_.load(std::memory_order_relaxed) +
         slot_of_.capacity() * sizeof(uint32_t) +
         states_.capacity() * sizeof(SeriesState) + ids_.capacity() * sizeof(SeriesId) + versions_.bytes();
}

SeriesState& Memtable::State(SeriesId series) {
  if (series >= slot_of_.size()) {
    // Doubling, so that growing one id at a time stays amortised.
    if (series >= slot_of_.capacity()) slot_of_.reserve(std::max<size_t>(2 * slot_of_.capacity(), series + 1));
    slot_of_.resize(series + 1, kNoSlot);
  }
  uint32_t& slot = slot_of_[series];
  if (slot == kNoSlot) {
    slot = static_cast<uint32_t>(states_.size());
    states_.emplace_back();
    ids_.push_back(series);
  }
  return states_[slot];
}

SeriesState& Memtable::WriteState(SeriesId series) {
  SeriesState& st = State(series);
  versions_.BeforeWrite(slot_of_[series], st.rows, &st.stamp);
  return st;
}

void Memtable::Prefetch(SeriesId series, int step) const {
  if (series >= slot_of_.size()) return;
  switch (step) {
    case 0: __builtin_prefetch(&slot_of_[series]); break;
    case 1:
      if (slot_of_[series] != kNoSlot) __builtin_prefetch(&states_[slot_of_[series]]);
      break;
    default:
      if (slot_of_[series] != kNoSlot) {
        const SeriesState& st = states_[slot_of_[series]];
        pages_.PrefetchHeader(st.last_page);
      }
      break;
  }
}

int64_t Memtable::FirstTimeAfter(const SeriesState& st, int64_t time) const {
  int64_t next = INT64_MAX;
  for (PageRef ref = st.first_page; ref != kNoPage;) {
    const RowPages::PageView page = pages_.View(ref);
    if (page.first_time > time) next = std::min(next, page.first_time);
    ref = page.next;
  }
  return next;
}

int64_t Memtable::LatestTimeBefore(const SeriesState& st, int64_t start) const {
  int64_t latest = INT64_MIN;
  for (PageRef ref = st.first_page; ref != st.last_page;) {
    const RowPages::PageView page = pages_.View(ref);
    if (page.first_time < start) latest = std::max(latest, page.last_time);
    ref = page.next;
  }
  return latest;
}

void Memtable::NoteTime(SeriesState& st, int64_t time) {
  st.min_time = std::min(st.min_time, time);
  st.max_time = std::max(st.max_time, time);
  min_time_ = std::min(min_time_, time);
  max_time_ = std::max(max_time_, time);
}

void Memtable::AppendRow(SeriesState& st, const TableBatch& batch, const Row& row,
                         const std::vector<ColumnId>& field_ids, const TableSchema& schema,
                         uint32_t rows_coming) {
  row_columns_.clear();
  row_values_.clear();
  const FieldValue* values = batch.values().data() + row.value_begin;
  for (uint32_t i = 0; i < row.value_count; ++i) {
    const FieldValue& v = values[i];
    const ColumnId c = field_ids[v.field];
    ValueType type = pages_.ColumnType(c);
    if (type == ValueType::kNull) {
      type = schema.fields()[c].type;
      pages_.SetColumnType(c, type);
    }
    const uint64_t bits =
        type == ValueType::kString ? pages_.StoreString(batch.StringValue(v)) : FieldValueBits(v, type);
    // A field twice in one row: the last value wins.
    auto dup = std::find(row_columns_.begin(), row_columns_.end(), c);
    if (dup != row_columns_.end()) {
      row_values_[dup - row_columns_.begin()] = bits;
      continue;
    }
    row_columns_.push_back(c);
    row_values_.push_back(bits);
  }
  AppendPageRow(st, PageRow{row.time, row_columns_.data(), row_values_.data(),
                            static_cast<uint32_t>(row_columns_.size())},
                rows_coming);
}

void Memtable::AppendPageRow(SeriesState& st, const PageRow& row, uint32_t rows_coming) {
  // The series' newest time: a row after it sizes a new page to what its hour has left at the
  // series' interval; a row before it is late, and its page holds the late rows arriving with it.
  const int64_t prev_time = st.rows > 0 ? st.max_time : INT64_MIN;
  // Asked by RowPages::Append only when the row could join the last page past its span: rows may
  // join the end of the last page up to the next page's start, and only a late page (not holding
  // the series' newest row) has a next one; or below it, down to the other pages' latest time.
  struct Ask {
    const Memtable* mem;
    const SeriesState* st;
  } ask{this, &st};
  RowPages::Neighbours neighbours;
  neighbours.context = &ask;
  neighbours.first_time_after = [](const void* c, int64_t high) {
    const Ask& a = *static_cast<const Ask*>(c);
    if (a.st->sorted || high == a.st->max_time) return INT64_MAX;
    // The rows of one late run ask about the same page: the walk is done once.
    if (a.mem->below_page_ != a.st->last_page) {
      a.mem->below_page_ = a.st->last_page;
      a.mem->below_time_ = a.mem->FirstTimeAfter(*a.st, high);
    }
    return a.mem->below_time_;
  };
  neighbours.latest_time_before = [](const void* c, int64_t low) {
    const Ask& a = *static_cast<const Ask*>(c);
    return a.mem->LatestTimeBefore(*a.st, low);
  };
  switch (pages_.Append(row, st.rows, rows_coming, prev_time, neighbours, &st.first_page, &st.last_page)) {
    case RowPages::Placement::kAppended: break;
    case RowPages::Placement::kAppendedOutOfOrder:
      // The page may start earlier now, which a remembered "first time after" must not miss.
      below_page_ = kNoPage;
      break;
    case RowPages::Placement::kNewPage:
      // A late row's page follows pages with later times: the chain is no longer in time order.
      if (st.rows > 0 && row.time <= st.max_time) st.sorted = 0;
      break;
  }
  NoteTime(st, row.time);
  ++st.rows;
  ++rows_;
}

void Memtable::Append(SeriesId series, const TableBatch& batch, const Row& row,
                      const std::vector<ColumnId>& field_ids, const TableSchema& schema) {
  AppendRow(WriteState(series), batch, row, field_ids, schema, 1);
}

void Memtable::AppendRows(SeriesId series, const TableBatch& batch, std::span<const uint32_t> rows,
                          const std::vector<ColumnId>& field_ids, const TableSchema& schema) {
  if (rows.empty()) return;
  SeriesState& st = WriteState(series);
  // Rows from i on in the same hour slice (a page never spans two), to size a new page.
  size_t slice_end = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i >= slice_end) {
      const int64_t slice = FloorDiv(batch.rows()[rows[i]].time, kSliceWidthNs);
      slice_end = i + 1;
      while (slice_end < rows.size() && FloorDiv(batch.rows()[rows[slice_end]].time, kSliceWidthNs) == slice) {
        ++slice_end;
      }
    }
    AppendRow(st, batch, batch.rows()[rows[i]], field_ids, schema, static_cast<uint32_t>(slice_end - i));
  }
}

std::vector<SeriesId> Memtable::SeriesIds() const {
  std::vector<SeriesId> ids;
  ids.reserve(ids_.size());
  for (size_t i = 0; i < ids_.size(); ++i) {
    if (states_[i].rows > 0) ids.push_back(ids_[i]);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool Memtable::PrefixTimeRange(SeriesId id, size_t limit, int64_t* min_time,
                               int64_t* max_time) const {
  const SeriesState* st = Find(id);
  if (st == nullptr || limit == 0) return false;
  if (limit >= st->rows) {
    *min_time = st->min_time;
    *max_time = st->max_time;
    return true;
  }
  std::vector<int64_t> times;
  pages_.GatherTimes(st->first_page, limit, &times);
  // Not front and back even for a sorted series: a page may hold late rows out of order.
  auto [lo, hi] = std::minmax_element(times.begin(), times.end());
  *min_time = *lo;
  *max_time = *hi;
  return true;
}

std::shared_ptr<const TimeOrder> Memtable::OrderOf(SeriesId id, const std::vector<int64_t>& times,
                                                   size_t n) const {
  {
    std::lock_guard<std::mutex> lock(order_mu_);
    auto it = orders_.find(id);
    if (it != orders_.end() && it->second->rows == n && it->second->edits == edits_) return it->second;
  }
  auto computed = std::make_shared<TimeOrder>();
  computed->rows = n;
  computed->edits = edits_;
  computed->order.resize(n);
  std::iota(computed->order.begin(), computed->order.end(), 0u);
  SortByTime(times.data(), &computed->order);
  for (size_t r = 1; r < n && !computed->repeats; ++r) {
    computed->repeats = times[computed->order[r]] == times[computed->order[r - 1]];
  }
  std::lock_guard<std::mutex> lock(order_mu_);
  orders_[id] = computed;
  return computed;
}

void Memtable::GatherColumns(const SeriesState& st, const std::vector<int>& columns,
                             std::span<const RowRange> ranges, std::vector<ColumnBuffer>* out) const {
  GatherEachColumn(pages_, columns, out, [&](ColumnId c, ColumnBuffer* dst) {
    return pages_.GatherColumn(st.first_page, c, ranges, dst);
  });
}

void Memtable::ReadWriteOrder(SeriesId id, size_t limit, SeriesBuffer* out) const {
  out->times.clear();
  out->columns.clear();
  const SeriesState* st = Find(id);
  if (st == nullptr) return;
  const size_t n = std::min<size_t>(st->rows, limit);
  pages_.GatherTimes(st->first_page, n, &out->times);
  std::vector<int> all;
  for (ColumnId c = 0; c < pages_.column_count(); ++c) all.push_back(static_cast<int>(c));
  const RowRange whole{0, n};
  GatherColumns(*st, all, {&whole, 1}, &out->columns);
}

void Memtable::ReadSorted(SeriesId id, int64_t min_time, int64_t max_time,
                          const std::vector<int>& columns, SortedSeries* out, size_t limit,
                          bool keep_page_order, const RowFilter* filter) const {
  out->times.clear();
  // Columns are emptied but keep their buffers: a scan reads series after series into one `out`,
  // and fresh buffers cost more (allocation, zeroing, page faults) than the copying itself.
  for (ColumnBuffer& c : out->columns) ClearToAbsent(&c);
  const SeriesState* st = Find(id);
  if (st == nullptr || limit == 0) return;
  if (st->max_time < min_time || st->min_time > max_time) return;
  const size_t n = std::min<size_t>(st->rows, limit);
  thread_local std::vector<OrderedPage> pages;
  if (PagesInTimeOrder(id, *st, n, min_time, max_time, keep_page_order, &pages)) {
    // Pages in time order with unique times: the rows in range, page by page, straight into `out`.
    ReadOrderedPages(pages, min_time, max_time, columns, nullptr, nullptr, filter, out);
    return;
  }
  thread_local SeriesBuffer buf;
  buf.times.clear();
  pages_.GatherTimes(st->first_page, n, &buf.times);
  for (ColumnBuffer& c : buf.columns) ClearToAbsent(&c);
  const RowRange all{0, n};
  GatherColumns(*st, columns, {&all, 1}, &buf.columns);

  // Row order: by time; equal times merge (see below).
  std::vector<uint32_t> order;
  std::vector<size_t> group_start;  // first position in `order` of each time, when times repeat
  const std::shared_ptr<const TimeOrder> cached = OrderOf(id, buf.times, n);
  const int64_t* t = buf.times.data();
  if (!cached->repeats) {
    // Unique times: the range is a slice of the cached order.
    const std::vector<uint32_t>& o = cached->order;
    auto first = std::partition_point(o.begin(), o.end(), [&](uint32_t i) { return t[i] < min_time; });
    auto last = std::partition_point(first, o.end(), [&](uint32_t i) { return t[i] <= max_time; });
    order.assign(first, last);
  } else {
    order.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      if (t[i] >= min_time && t[i] <= max_time) order.push_back(i);
    }
    SortByTime(t, &order);
    // Rows with one time form a group (in write order); each output row merges its group field
    // by field: a column takes the last written non-null value (a later write naming only some
    // fields leaves the others as they were).
    bool repeats = false;
    for (size_t r = 1; r < order.size() && !repeats; ++r) repeats = t[order[r]] == t[order[r - 1]];
    if (repeats) {
      for (size_t r = 0; r < order.size(); ++r) {
        if (r == 0 || t[order[r]] != t[order[r - 1]]) group_start.push_back(r);
      }
      group_start.push_back(order.size());
    }
  }
  const bool grouped = !group_start.empty();
  const size_t out_rows = grouped ? group_start.size() - 1 : order.size();
  // The row of `order` that supplies column `col` for output row r.
  auto pick = [&](const ColumnBuffer& col, size_t r) -> uint32_t {
    if (!grouped) return order[r];
    for (size_t k = group_start[r + 1]; k-- > group_start[r];) {
      if (col.validity.empty() || col.validity[order[k]] != 0) return order[k];
    }
    return order[group_start[r + 1] - 1];
  };

  out->times.resize(out_rows);
  for (size_t r = 0; r < out_rows; ++r) out->times[r] = t[order[grouped ? group_start[r] : r]];
  int max_col = -1;
  for (int c : columns) max_col = std::max(max_col, c);
  if (out->columns.size() < static_cast<size_t>(max_col + 1)) out->columns.resize(max_col + 1);
  for (int c : columns) {
    if (c < 0 || static_cast<size_t>(c) >= buf.columns.size()) continue;
    const ColumnBuffer& src = buf.columns[c];
    if (src.type == ValueType::kNull) continue;
    ColumnBuffer& dst = out->columns[c];
    dst.type = src.type;
    if (src.type == ValueType::kString) {
      dst.strings.resize(out_rows);
      for (size_t r = 0; r < out_rows; ++r) dst.strings[r] = src.strings[pick(src, r)];
    } else {
      dst.bits.resize(out_rows);
      for (size_t r = 0; r < out_rows; ++r) dst.bits[r] = src.bits[pick(src, r)];
    }
    if (!src.validity.empty()) {
      dst.validity.resize(out_rows);
      for (size_t r = 0; r < out_rows; ++r) {
        dst.validity[r] = src.validity[pick(src, r)];
        dst.null_count += dst.validity[r] == 0;
      }
      if (dst.null_count == 0) dst.validity.clear();
    }
  }
}

void Memtable::DeleteRows(const std::vector<SeriesId>* series, int64_t min_time, int64_t max_time) {
  // A series losing rows is written again into new pages (the old ones stay, counted, until the
  // memtable goes).
  SeriesBuffer buf;
  auto erase_in = [&](SeriesId id) {
    const SeriesState* found = Find(id);
    if (found == nullptr) return;
    ReadWriteOrder(id, SIZE_MAX, &buf);
    std::vector<uint8_t> keep(buf.times.size());
    size_t kept = 0;
    for (size_t i = 0; i < buf.times.size(); ++i) {
      keep[i] = buf.times[i] < min_time || buf.times[i] > max_time;
      kept += keep[i];
    }
    if (kept == buf.times.size()) return;
    ++edits_;
    SeriesState& st = states_[slot_of_[id]];
    rows_ -= st.rows;
    st = SeriesState{};
    for (size_t i = 0; i < buf.times.size(); ++i) {
      if (!keep[i]) continue;
      row_columns_.clear();
      row_values_.clear();
      for (ColumnId c = 0; c < buf.columns.size(); ++c) {
        const ColumnBuffer& col = buf.columns[c];
        if (col.type == ValueType::kNull || (!col.validity.empty() && col.validity[i] == 0)) continue;
        row_columns_.push_back(c);
        row_values_.push_back(col.type == ValueType::kString ? pages_.StoreString(col.strings[i])
                                                             : col.bits[i]);
      }
      AppendPageRow(st, PageRow{buf.times[i], row_columns_.data(), row_values_.data(),
                                static_cast<uint32_t>(row_columns_.size())},
                    static_cast<uint32_t>(kept));
    }
  };
  if (series == nullptr) {
    for (SeriesId id : ids_) erase_in(id);
  } else {
    for (SeriesId id : *series) erase_in(id);
  }
}

}  // namespace gnomon::storage
