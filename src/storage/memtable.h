// Memtable: the in-memory part of one table. Per series, a 32-byte state and a chain of row pages
// (RowPages: times and values of rows in write order, carved from shared 1 MB blocks). Rows may
// arrive out of order and may repeat a time; readers get them sorted with duplicates resolved to
// the last write (ReadSorted()).
// Not thread-safe: the owning Table serialises writers and readers of the active memtable;
// a frozen memtable is immutable and may be read concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/base/value_type.h"
#include "src/storage/column_buffer.h"
#include "src/storage/memtable_pages.h"
#include "src/storage/row_count_versions.h"
#include "src/storage/scan.h"
#include "src/storage/table_schema.h"

namespace gnomon::storage {

// A series' rows in time order (positions in write order), computed by a read of an unsorted
// series and kept for later reads while the series stays as it was (same rows, no edits).
struct TimeOrder {
  size_t rows = 0;          // rows it covers
  uint64_t edits = 0;       // Memtable::edits() when computed
  bool repeats = false;     // some time occurs twice (reads then merge rows field by field)
  std::vector<uint32_t> order;
};

// What the memtable keeps per series besides its pages: 32 bytes.
struct SeriesState {
  PageRef first_page = kNoPage;
  PageRef last_page = kNoPage;
  uint32_t rows : 31 = 0;
  uint32_t sorted : 1 = 1;  // the chain's pages in time order (RowPages::Append keeps each page so)
  uint32_t stamp = 0;       // RowCountVersions' stamp of the write that last changed `rows`
  int64_t min_time = INT64_MAX;
  int64_t max_time = INT64_MIN;
};
static_assert(sizeof(SeriesState) == 32);

// A series' rows gathered from its pages in write order (times, and the columns asked for).
struct SeriesBuffer {
  std::vector<int64_t> times;
  std::vector<ColumnBuffer> columns;  // indexed by ColumnId
};

class Memtable {
 public:
  Memtable() = default;
  Memtable(const Memtable&) = delete;
  Memtable& operator=(const Memtable&) = delete;

  // Appends one row; `values` index the batch's fields through `field_ids` (batch field -> column).
  void Append(SeriesId series, const TableBatch& batch, const Row& row,
              const std::vector<ColumnId>& field_ids, const TableSchema& schema);

  // Appends rows `rows` (indexes into batch.rows(), in write order) of one series: the same as
  // calling Append for each, but a run of rows naming the same numeric fields in the same order
  // (a series' usual shape) is appended column by column.
  void AppendRows(SeriesId series, const TableBatch& batch, std::span<const uint32_t> rows,
                  const std::vector<ColumnId>& field_ids, const TableSchema& schema);

  // Cache hint for a coming AppendRows of `series`, in three steps issued in turn a few series
  // ahead of it (step 0 farthest): 0 fetches the series' state, 1 its last page's header, 2 the
  // free slots of that page, where the next values go. Each step reads only what the one before
  // fetched. No effect on contents.
  void Prefetch(SeriesId series, int step) const;

  bool empty() const { return rows_ == 0; }
  size_t rows() const { return rows_; }
  size_t ApproximateBytes() const;
  int64_t min_time() const { return min_time_; }
  int64_t max_time() const { return max_time_; }

  // Series with rows, ascending.
  std::vector<SeriesId> SeriesIds() const;
  // The state of `id`, or nullptr when it has no rows here.
  const SeriesState* Find(SeriesId id) const {
    if (id >= slot_of_.size() || slot_of_[id] == kNoSlot) return nullptr;
    const SeriesState* s = &states_[slot_of_[id]];
    return s->rows > 0 ? s : nullptr;
  }
  // The rows of `id` with time in [min_time, max_time], sorted and deduplicated.
  // `columns` selects ColumnIds to materialise (others are left kNull in the result).
  // Only the series' first `limit` rows in write order are considered (see RowsAt()).
  // `keep_page_order`: keep the series' page order for later reads when its chain is long (a
  // query's read; a flush, reading every series once, passes false).
  // `filter` (optional): a comparison the caller filters on; the read may then leave out rows
  // that certainly fail it (whole pages by their statistics, the rest row by row), as segment
  // reads do. Only for a caller that does not merge these rows with another source's.
  struct RowFilter {
    ColumnId column = 0;
    ScanPredicate predicate;  // its `column` is unused
  };
  void ReadSorted(SeriesId id, int64_t min_time, int64_t max_time,
                  const std::vector<int>& columns, SortedSeries* out,
                  size_t limit = SIZE_MAX, bool keep_page_order = true,
                  const RowFilter* filter = nullptr) const;
  // For a series whose pages can be read in time order (its rows arrived in order, or out of
  // order in runs whose pages do not overlap): offers runs of its first `limit` rows in
  // [min_time, max_time] to `offer` (pages, or the part of a page in range, of kMinStatsPageRows
  // rows or more; the runs of one hour slice first as one), as a time span, rows and the
  // statistics of `columns` (in their order; -1 entries: empty statistics); then reads the rows
  // in range that no accepted run covered into *out, sorted.
  // Returns false, doing nothing, for a series whose pages overlap (read it with ReadSorted).
  // `can_use` is asked first, before any statistics are computed.
  using PageOffer = std::function<bool(int64_t first_time, int64_t last_time, uint32_t rows,
                                       const std::vector<ColumnStats>& stats)>;
  using PageFilter = std::function<bool(int64_t first_time, int64_t last_time)>;
  bool ReadSortedOfferingPages(SeriesId id, int64_t min_time, int64_t max_time,
                               const std::vector<int>& columns, size_t limit,
                               const PageFilter& can_use, const PageOffer& offer,
                               SortedSeries* out, const RowFilter* filter = nullptr) const;
  // Smaller pages are read as rows: statistics would cost more than they save.
  static constexpr uint32_t kMinStatsPageRows = RowPages::kMinStatsPageRows;

  // The first `limit` rows of `id` in write order, every column the memtable has, unsorted.
  void ReadWriteOrder(SeriesId id, size_t limit, SeriesBuffer* out) const;

  // A reader's point-in-time view of a memtable that keeps growing. A series' rows are only ever
  // appended, except by DeleteRows (which bumps edits()), so reading each series up to its
  // RowsAt(view) sees every write applied before OpenView and none after.
  // REQUIRES (both): no concurrent writer; the view must not outlive the memtable.
  using View = RowCountVersions::View;
  View OpenView() const { return versions_.OpenView(); }
  uint32_t RowsAt(SeriesId id, const View& view) const {
    if (id >= slot_of_.size() || slot_of_[id] == kNoSlot) return 0;
    const SeriesState& st = states_[slot_of_[id]];
    return versions_.RowsAt(slot_of_[id], st.rows, st.stamp, view);
  }
  uint64_t edits() const { return edits_; }
  // Time range of the first `limit` rows of `id`; false when there are none.
  bool PrefixTimeRange(SeriesId id, size_t limit, int64_t* min_time, int64_t* max_time) const;

  // Removes rows of the given series (all when `series` is empty) in [min_time, max_time].
  void DeleteRows(const std::vector<SeriesId>* series, int64_t min_time, int64_t max_time);

 private:
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  SeriesState& State(SeriesId series);
  // State(series), about to take rows: keeps its count for open views that need it.
  SeriesState& WriteState(SeriesId series);
  // Appends one row of the batch (values through field_ids); `rows_coming` counts it and the
  // rows of the same append after it.
  void AppendRow(SeriesState& st, const TableBatch& batch, const Row& row,
                 const std::vector<ColumnId>& field_ids, const TableSchema& schema,
                 uint32_t rows_coming);
  void NoteTime(SeriesState& st, int64_t time);
  // The first time of the series' pages that start after `time` (INT64_MAX: none).
  int64_t FirstTimeAfter(const SeriesState& st, int64_t time) const;
  // The latest time of the series' pages, other than its last, that start before `start`
  // (INT64_MIN: none).
  int64_t LatestTimeBefore(const SeriesState& st, int64_t start) const;
  // The time order of the first `n` rows of `id`, from its cache or computed (and cached).
  std::shared_ptr<const TimeOrder> OrderOf(SeriesId id, const std::vector<int64_t>& times,
                                           size_t n) const;
  // Gathers columns `columns` of the rows of `ranges` of `st` into *out, whose columns must be
  // empty; a column no row of the series named stays absent (kNull), as in a segment.
  void GatherColumns(const SeriesState& st, const std::vector<int>& columns,
                     std::span<const RowRange> ranges, std::vector<ColumnBuffer>* out) const;
  // A page of a series, as read in time order: `rows` of its rows are read (a reader's prefix
  // may cut the page holding its last row); `chain_row` is the chain's row at its start.
  struct OrderedPage {
    RowPages::PageView view;
    uint32_t rows;
    uint32_t chain_row;
  };
  // A series' pages in time order, while it has `rows` rows and the memtable `edits` edits.
  struct PageOrder {
    uint32_t rows = 0;
    uint64_t edits = 0;
    bool ordered = true;  // false: two pages' spans overlap (only a row sort orders the rows)
    std::vector<OrderedPage> pages;
    // For a cached order: the merged statistics of runs of whole pages of one hour slice, by
    // RunKey (pages [first, end) of `pages` and a column), made by the first reader that needs
    // them, so that later queries read a series' hour as one entry, not page by page. Their
    // bytes are charged to *charged while the order lives.
    mutable std::mutex runs_mu;
    mutable std::unordered_map<uint64_t, ColumnStats> run_stats;  // runs_mu
    mutable size_t run_bytes = 0;                                  // runs_mu
    std::atomic<size_t>* charged = nullptr;
    ~PageOrder();
    // The kept statistics of pages [first, end) for `columns` (ids; -1 entries skipped) into
    // (*into)[k], with (*found)[k] set for each one kept.
    void FindRun(size_t first, size_t end, const std::vector<int>& columns, std::vector<ColumnStats>* into,
                 std::vector<uint8_t>* found) const;
    // Keeps stats[k] as pages [first, end)'s statistics of columns[k], where found[k] is unset.
    void KeepRun(size_t first, size_t end, const std::vector<int>& columns, const std::vector<ColumnStats>& stats,
                 const std::vector<uint8_t>& found) const;
    // The key of pages [first, end) and column `c`; false when they do not fit one.
    static bool RunKey(size_t first, size_t end, ColumnId c, uint64_t* key);
  };
  // A cached order a read's pages came from, and where in it they start.
  struct OrderSource {
    std::shared_ptr<const PageOrder> order;
    size_t base = 0;
  };
  // Series with fewer pages walk their chain at each read.
  static constexpr size_t kCachedPageOrderPages = 8;
  std::shared_ptr<PageOrder> ComputePageOrder(const SeriesState& st) const;
  // The pages holding the first `n` rows of `id` (state `st`) whose spans meet [min_time,
  // max_time], in time order: chain order for a sorted series, else sorted by first time (kept for
  // long chains when `keep`); false when their spans overlap.
  bool PagesInTimeOrder(SeriesId id, const SeriesState& st, size_t n, int64_t min_time, int64_t max_time,
                        bool keep, std::vector<OrderedPage>* out, OrderSource* source = nullptr) const;
  // Appends the rows of `pages` in [min_time, max_time] to *out (columns emptied by the caller);
  // with `offer`, runs of kMinStatsPageRows rows or more in range (whole pages, or the part of
  // a page the range cuts) that `can_use` accepts are offered as statistics first, those of one
  // hour slice together and then one by one, and their rows are read only when refused.
  // `source` (pages from a cached order) lets runs of whole pages share merged statistics.
  void ReadOrderedPages(std::span<const OrderedPage> pages, int64_t min_time, int64_t max_time,
                        const std::vector<int>& columns, const PageFilter* can_use,
                        const PageOffer* offer, const RowFilter* filter, SortedSeries* out,
                        const OrderSource* source = nullptr) const;
  // ReadOrderedPages' runs of pages offered as statistics (memtable_ordered_read.cc).
  class RunOffers;
  // Adds the rows in [min_time, max_time] of `p` that `filter` (if any) may pass to *slices
  // (an unordered page's through *picks, sorted by time), and their times to out->times.
  void AddRowsInRange(const OrderedPage& p, int64_t min_time, int64_t max_time, const RowFilter* filter,
                      std::vector<RowPages::PageSlice>* slices, std::vector<uint16_t>* picks,
                      SortedSeries* out) const;
  // Adds to *slices (and their times to *times) the runs of rows [from, to) of ordered page
  // `page` whose `filter` column may pass; none when the page's statistics show no row can.
  void AddPassingRows(const RowPages::PageView& page, uint32_t from, uint32_t to, const RowFilter& filter,
                      std::vector<RowPages::PageSlice>* slices, std::vector<int64_t>* times) const;
  // Appends `row` to the pages of `st` (`rows_coming`: it and the rows of the same append after
  // it in its hour slice) and counts it.
  void AppendPageRow(SeriesState& st, const PageRow& row, uint32_t rows_coming);

  RowPages pages_;
  std::vector<uint32_t> slot_of_;   // SeriesId -> index into states_ (kNoSlot: none)
  std::vector<SeriesState> states_;
  std::vector<SeriesId> ids_;       // parallel to states_
  size_t rows_ = 0;
  // The last late page asked about and the first time of the page after it (AppendPageRow).
  mutable PageRef below_page_ = kNoPage;  // writers only (under the owner's exclusive lock)
  mutable int64_t below_time_ = INT64_MAX;
  uint64_t edits_ = 0;  // DeleteRows calls that removed rows
  RowCountVersions versions_;
  // Before the orders: a PageOrder's destructor gives back its run statistics' bytes here.
  mutable std::atomic<size_t> page_order_bytes_{0};
  mutable std::mutex order_mu_;  // guards orders_ and page_orders_
  mutable std::unordered_map<SeriesId, std::shared_ptr<const TimeOrder>> orders_;
  mutable std::unordered_map<SeriesId, std::shared_ptr<const PageOrder>> page_orders_;  // order_mu_
  int64_t min_time_ = INT64_MAX;
  int64_t max_time_ = INT64_MIN;
  // Scratch of the append path.
  std::vector<ColumnId> row_columns_;
  std::vector<uint64_t> row_values_;
};

}  // namespace gnomon::storage
