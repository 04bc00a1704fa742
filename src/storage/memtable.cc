#include "src/storage/memtable.h"

#include "src/storage/row_selection.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace gnomon::storage {
namespace {

// Grows a column to `rows` entries, marking the new ones null.
void PadColumn(ColumnBuffer* col, size_t rows) {
  size_t have = col->type == ValueType::kString ? col->strings.size() : col->bits.size();
  if (have >= rows) return;
  if (col->validity.empty()) col->validity.assign(have, 1);
  col->validity.resize(rows, 0);
  col->null_count += rows - have;
  if (col->type == ValueType::kString) {
    col->strings.resize(rows);
  } else {
    col->bits.resize(rows, 0);
  }
}

uint64_t ValueBits(const FieldValue& v, ValueType type) {
  switch (type) {
    case ValueType::kFloat64: {
      uint64_t b;
      std::memcpy(&b, &v.f64, 8);
      return b;
    }
    case ValueType::kInt64: return static_cast<uint64_t>(v.i64);
    case ValueType::kUInt64: return v.u64;
    case ValueType::kBool: return v.b ? 1 : 0;
    default: return 0;
  }
}

// Heap bytes a vector holds, with the allocator's per-block overhead.
constexpr size_t kAllocOverhead = 16;
template <typename T>
size_t HeapBytes(const std::vector<T>& v) {
  return v.capacity() == 0 ? 0 : v.capacity() * sizeof(T) + kAllocOverhead;
}

}  // namespace

size_t Memtable::Footprint(const SeriesBuffer& buf) {
  size_t bytes = sizeof(SeriesBuffer) + kAllocOverhead +
                 HeapBytes(buf.times) + HeapBytes(buf.columns);
  for (const ColumnBuffer& c : buf.columns) {
    bytes += HeapBytes(c.bits) + HeapBytes(c.validity) + HeapBytes(c.strings);
  }
  return bytes;  // string values' own heap bytes are counted as they are stored (StringBytes)
}

namespace {

// Heap bytes of a string value beyond std::string's inline buffer.
size_t StringBytes(std::string_view s) { return s.size() > 15 ? s.size() + 1 + kAllocOverhead : 0; }

}  // namespace

SeriesBuffer& Memtable::Slot(SeriesId series, bool* created) {
  if (series >= series_.size()) {
    // The slot table itself grows by doubling; count what it holds as it grows.
    const size_t old_capacity = series_.capacity();
    series_.resize(series + 1);
    bytes_ += (series_.capacity() - old_capacity) * sizeof(series_[0]);
  }
  auto& slot = series_[series];
  *created = !slot;
  if (!slot) slot = std::make_unique<SeriesBuffer>();
  return *slot;
}

void Memtable::Prefetch(SeriesId series, int step) const {
  if (series >= series_.size() || !series_[series]) return;
  const SeriesBuffer* buf = series_[series].get();
  switch (step) {
    case 0:
      __builtin_prefetch(buf);
      __builtin_prefetch(reinterpret_cast<const char*>(buf) + 64);
      break;
    case 1: {
      const char* cols = reinterpret_cast<const char*>(buf->columns.data());
      const size_t bytes = buf->columns.size() * sizeof(ColumnBuffer);
      for (size_t off = 0; off < bytes; off += 64) __builtin_prefetch(cols + off);
      if (!buf->times.empty()) __builtin_prefetch(buf->times.data() + buf->times.size(), 1);
      break;
    }
    default:
      for (const ColumnBuffer& col : buf->columns) {
        if (!col.bits.empty()) __builtin_prefetch(col.bits.data() + col.bits.size(), 1);
      }
      break;
  }
}

void Memtable::AppendRows(SeriesId series, const TableBatch& batch, std::span<const uint32_t> rows,
                          const std::vector<ColumnId>& field_ids, const TableSchema& schema) {
  if (rows.empty()) return;
  bool created = false;
  SeriesBuffer& buf = Slot(series, &created);
  // Memory is counted as the buffers hold it (capacities and allocations, not values), so that
  // the budget bounds what the process holds even for series of a row or two.
  const size_t before = created ? 0 : Footprint(buf);
  // A series seen before usually has its columns already: the whole run goes column-wise.
  if (!AppendUniformRows(buf, batch, rows, field_ids)) {
    // Else the first row goes on its own: it creates and types the columns the run needs.
    const Row& first = batch.rows()[rows[0]];
    AppendRow(buf, first.time, batch, first, field_ids, schema);
    rows = rows.subspan(1);
    if (!rows.empty() && !AppendUniformRows(buf, batch, rows, field_ids)) {
      for (uint32_t r : rows) {
        const Row& row = batch.rows()[r];
        AppendRow(buf, row.time, batch, row, field_ids, schema);
      }
    }
  }
  bytes_ += Footprint(buf) - before;
}

bool Memtable::AppendUniformRows(SeriesBuffer& buf, const TableBatch& batch,
                                 std::span<const uint32_t> rows,
                                 const std::vector<ColumnId>& field_ids) {
  // Qualifies when every row names the fields of the series' last row, in its order, and those
  // are all of the series' columns, numeric, distinct and without nulls so far: then each row
  // appends exactly one value to every column and nothing is padded.
  const std::vector<Row>& all = batch.rows();
  const FieldValue* values = batch.values().data();
  const Row& model = all[rows[0]];
  const uint32_t k = model.value_count;
  if (k != buf.typed_columns || k > 64) return false;
  ColumnBuffer* cols[64];
  for (uint32_t j = 0; j < k; ++j) {
    ColumnId c = field_ids[values[model.value_begin + j].field];
    if (c >= buf.columns.size()) return false;
    ColumnBuffer& col = buf.columns[c];
    if (col.type == ValueType::kNull || col.type == ValueType::kString ||
        col.bits.size() != buf.times.size()) {
      return false;
    }
    cols[j] = &col;
  }
  for (uint32_t j = 0; j < k; ++j) {  // a column twice in the model row: per-row path
    for (uint32_t i = j + 1; i < k; ++i) {
      if (cols[i] == cols[j]) return false;
    }
  }
  // Rows of one series sit far apart in the batch (TSBS interleaves hosts), so their values are
  // fetched ahead: the hardware prefetcher does not follow this stride.
  constexpr size_t kAhead = 4;
  const size_t value_bytes = k * sizeof(FieldValue);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i + kAhead < rows.size()) {
      const char* next = reinterpret_cast<const char*>(values + all[rows[i + kAhead]].value_begin);
      for (size_t off = 0; off < value_bytes; off += 64) __builtin_prefetch(next + off);
    }
    const Row& row = all[rows[i]];
    if (row.value_count != k) return false;
    for (uint32_t j = 0; j < k; ++j) {
      if (values[row.value_begin + j].field != values[model.value_begin + j].field) return false;
    }
  }

  const size_t n = rows.size();
  const size_t base = buf.times.size();
  buf.times.resize(base + n);
  int64_t prev = base > 0 ? buf.times[base - 1] : INT64_MIN;
  bool sorted = buf.sorted;
  int64_t lo = buf.min_time, hi = buf.max_time;
  for (size_t i = 0; i < n; ++i) {
    int64_t t = all[rows[i]].time;
    if (base + i > 0 && t <= prev) sorted = false;
    buf.times[base + i] = t;
    prev = t;
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  buf.sorted = sorted;
  buf.min_time = lo;
  buf.max_time = hi;
  min_time_ = std::min(min_time_, lo);
  max_time_ = std::max(max_time_, hi);
  for (uint32_t j = 0; j < k; ++j) {
    ColumnBuffer& col = *cols[j];
    col.bits.resize(base + n);
    uint64_t* out = col.bits.data() + base;
    const ValueType type = col.type;
    for (size_t i = 0; i < n; ++i) out[i] = ValueBits(values[all[rows[i]].value_begin + j], type);
    if (!col.validity.empty()) col.validity.resize(base + n, 1);  // nulls earlier, none here
  }
  rows_ += n;
  return true;
}

void Memtable::Append(SeriesId series, int64_t time, const TableBatch& batch, const Row& row,
                      const std::vector<ColumnId>& field_ids, const TableSchema& schema) {
  bool created = false;
  SeriesBuffer& buf = Slot(series, &created);
  const size_t before = created ? 0 : Footprint(buf);
  AppendRow(buf, time, batch, row, field_ids, schema);
  bytes_ += Footprint(buf) - before;
}

void Memtable::AppendRow(SeriesBuffer& buf, int64_t time, const TableBatch& batch, const Row& row,
                         const std::vector<ColumnId>& field_ids, const TableSchema& schema) {
  if (!buf.times.empty() && time <= buf.times.back()) buf.sorted = false;
  buf.times.push_back(time);
  const size_t rows = buf.times.size();
  buf.min_time = std::min(buf.min_time, time);
  buf.max_time = std::max(buf.max_time, time);
  min_time_ = std::min(min_time_, time);
  max_time_ = std::max(max_time_, time);

  // Columns that got this row's value; when it is every typed column (the usual case: a series'
  // rows name the same fields), no column needs a null for the row.
  uint32_t filled = 0;
  const FieldValue* values = batch.values().data() + row.value_begin;
  for (uint32_t i = 0; i < row.value_count; ++i) {
    const FieldValue& v = values[i];
    ColumnId col_id = field_ids[v.field];
    if (col_id >= buf.columns.size()) {
      // Room for every column the schema has now, at once: grown one column at a time, a row
      // of ten fields left capacity for sixteen headers (88 bytes each) in every series.
      if (buf.columns.capacity() <= col_id) buf.columns.reserve(std::max<size_t>(schema.fields().size(), col_id + 1));
      buf.columns.resize(col_id + 1);
    }
    ColumnBuffer& col = buf.columns[col_id];
    if (col.type == ValueType::kNull) {
      col.type = schema.fields()[col_id].type;
      ++buf.typed_columns;
    }
    if (col.type == ValueType::kString) {
      std::string_view s = batch.StringValue(v);
      if (col.strings.size() == rows) {  // the field twice in one row: the last value wins
        bytes_ += StringBytes(s);
        col.strings.back() = s;
        continue;
      }
      PadColumn(&col, rows - 1);
      col.strings.emplace_back(s);
      bytes_ += StringBytes(s);
    } else {
      if (col.bits.size() == rows) {
        col.bits.back() = ValueBits(v, col.type);
        continue;
      }
      if (col.bits.size() + 1 != rows) PadColumn(&col, rows - 1);
      col.bits.push_back(ValueBits(v, col.type));
    }
    if (!col.validity.empty()) col.validity.push_back(1);
    ++filled;
  }
  if (filled < buf.typed_columns) {
    // Columns the row did not mention become null for it.
    for (ColumnBuffer& col : buf.columns) {
      if (col.type == ValueType::kNull) continue;
      size_t have = col.type == ValueType::kString ? col.strings.size() : col.bits.size();
      if (have < rows) PadColumn(&col, rows);
    }
  }
  ++rows_;
}

std::vector<SeriesId> Memtable::SeriesIds() const {
  std::vector<SeriesId> ids;
  for (SeriesId id = 0; id < series_.size(); ++id) {
    if (series_[id] && !series_[id]->times.empty()) ids.push_back(id);
  }
  return ids;
}

std::vector<uint32_t> Memtable::RowCounts() const {
  std::vector<uint32_t> counts(series_.size(), 0);
  for (size_t id = 0; id < series_.size(); ++id) {
    if (series_[id]) counts[id] = static_cast<uint32_t>(series_[id]->times.size());
  }
  return counts;
}

bool Memtable::PrefixTimeRange(SeriesId id, size_t limit, int64_t* min_time,
                               int64_t* max_time) const {
  const SeriesBuffer* buf = Find(id);
  if (buf == nullptr || buf->times.empty() || limit == 0) return false;
  if (limit >= buf->times.size()) {
    *min_time = buf->min_time;
    *max_time = buf->max_time;
  } else if (buf->sorted) {
    *min_time = buf->times.front();
    *max_time = buf->times[limit - 1];
  } else {
    auto [lo, hi] = std::minmax_element(buf->times.begin(), buf->times.begin() + limit);
    *min_time = *lo;
    *max_time = *hi;
  }
  return true;
}

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

std::shared_ptr<const TimeOrder> Memtable::OrderOf(const SeriesBuffer& buf, size_t n) const {
  {
    std::lock_guard<std::mutex> lock(order_mu_);
    const std::shared_ptr<const TimeOrder>& c = buf.time_order;
    if (c && c->rows == n && c->edits == edits_) return c;
  }
  auto computed = std::make_shared<TimeOrder>();
  computed->rows = n;
  computed->edits = edits_;
  computed->order.resize(n);
  std::iota(computed->order.begin(), computed->order.end(), 0u);
  SortByTime(buf.times.data(), &computed->order);
  for (size_t r = 1; r < n && !computed->repeats; ++r) {
    computed->repeats = buf.times[computed->order[r]] == buf.times[computed->order[r - 1]];
  }
  std::lock_guard<std::mutex> lock(order_mu_);
  buf.time_order = computed;
  return computed;
}

void Memtable::ReadSorted(SeriesId id, int64_t min_time, int64_t max_time,
                          const std::vector<int>& columns, SortedSeries* out, size_t limit) const {
  out->times.clear();
  // Columns are emptied but keep their buffers: a scan reads series after series into one `out`,
  // and fresh buffers cost more (allocation, zeroing, page faults) than the copying itself.
  for (ColumnBuffer& c : out->columns) {
    c.type = ValueType::kNull;
    c.bits.clear();
    c.strings.clear();
    c.validity.clear();
    c.null_count = 0;
  }
  const SeriesBuffer* buf = Find(id);
  if (buf == nullptr || buf->times.empty() || limit == 0) return;
  if (buf->max_time < min_time || buf->min_time > max_time) return;
  const size_t n = std::min(buf->times.size(), limit);

  // Row order: by time; equal times merge (see below). `sorted` holds for all rows, so for any
  // prefix of them.
  std::vector<uint32_t> order;
  std::vector<size_t> group_start;  // unsorted buffers: first position in `order` of each time
  if (buf->sorted) {
    const auto end = buf->times.begin() + n;
    auto lo = std::lower_bound(buf->times.begin(), end, min_time) - buf->times.begin();
    auto hi = std::upper_bound(buf->times.begin(), end, max_time) - buf->times.begin();
    order.resize(hi - lo);
    std::iota(order.begin(), order.end(), static_cast<uint32_t>(lo));
  } else {
    const std::shared_ptr<const TimeOrder> cached = OrderOf(*buf, n);
    if (!cached->repeats) {
      // Unique times: the range is a slice of the cached order.
      const std::vector<uint32_t>& o = cached->order;
      const int64_t* t = buf->times.data();
      auto first = std::partition_point(o.begin(), o.end(), [&](uint32_t i) { return t[i] < min_time; });
      auto last = std::partition_point(first, o.end(), [&](uint32_t i) { return t[i] <= max_time; });
      order.assign(first, last);
    } else {
      order.reserve(n);
      for (uint32_t i = 0; i < n; ++i) {
        if (buf->times[i] >= min_time && buf->times[i] <= max_time) order.push_back(i);
      }
      SortByTime(buf->times.data(), &order);
    }
    // Rows with one time form a group (in write order); each output row merges its group field
    // by field: a column takes the last written non-null value (a later write naming only some
    // fields leaves the others as they were). Without repeated times no merging is needed.
    bool repeats = false;
    for (size_t r = 1; r < order.size() && !repeats; ++r) repeats = buf->times[order[r]] == buf->times[order[r - 1]];
    if (repeats) {
      for (size_t r = 0; r < order.size(); ++r) {
        if (r == 0 || buf->times[order[r]] != buf->times[order[r - 1]]) group_start.push_back(r);
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
  if (grouped) {
    for (size_t r = 0; r < out_rows; ++r) out->times[r] = buf->times[order[group_start[r]]];
  } else {
    for (size_t r = 0; r < out_rows; ++r) out->times[r] = buf->times[order[r]];
  }
  int max_col = -1;
  for (int c : columns) max_col = std::max(max_col, c);
  if (out->columns.size() < static_cast<size_t>(max_col + 1)) out->columns.resize(max_col + 1);
  for (int c : columns) {
    if (c < 0 || static_cast<size_t>(c) >= buf->columns.size()) continue;
    const ColumnBuffer& src = buf->columns[c];
    if (src.type == ValueType::kNull) continue;
    ColumnBuffer& dst = out->columns[c];
    dst.type = src.type;
    if (src.type == ValueType::kString) {
      dst.strings.resize(out_rows);
      for (size_t r = 0; r < out_rows; ++r) dst.strings[r] = src.strings[pick(src, r)];
    } else if (!grouped) {
      // The common case, a plain gather (a copy when the rows are already in order).
      dst.bits.resize(out_rows);
      if (buf->sorted) {
        std::copy_n(src.bits.begin() + (out_rows > 0 ? order[0] : 0), out_rows, dst.bits.begin());
      } else {
        const uint32_t* o = order.data();
        const uint64_t* from = src.bits.data();
        uint64_t* to = dst.bits.data();
        for (size_t r = 0; r < out_rows; ++r) to[r] = from[o[r]];
      }
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
  auto erase_in = [&](SeriesBuffer& buf) {
    std::vector<uint8_t> keep(buf.times.size());
    size_t kept = 0;
    for (size_t i = 0; i < buf.times.size(); ++i) {
      keep[i] = buf.times[i] < min_time || buf.times[i] > max_time;
      kept += keep[i];
    }
    if (kept == buf.times.size()) return;
    ++edits_;
    rows_ -= buf.times.size() - kept;
    KeepFlagged(&buf.times, keep);
    for (ColumnBuffer& col : buf.columns) {
      KeepFlagged(&col.bits, keep);
      KeepFlagged(&col.strings, keep);
      KeepFlagged(&col.validity, keep);
      col.null_count = 0;
      for (uint8_t v : col.validity) col.null_count += v == 0;
    }
    buf.min_time = INT64_MAX;
    buf.max_time = INT64_MIN;
    for (int64_t t : buf.times) {
      buf.min_time = std::min(buf.min_time, t);
      buf.max_time = std::max(buf.max_time, t);
    }
  };
  if (series == nullptr) {
    for (auto& s : series_) {
      if (s) erase_in(*s);
    }
  } else {
    for (SeriesId id : *series) {
      if (id < series_.size() && series_[id]) erase_in(*series_[id]);
    }
  }
}

}  // namespace gnomon::storage
