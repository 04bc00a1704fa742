// RowPages: the memtable's row storage. A series' rows live in a chain of pages carved from 1 MB
// blocks; a page holds up to `capacity` rows of one column shape (ColumnIds, interned once per
// memtable): their times, then each column's values as 8-byte patterns, then, in a sparse page
// only, one validity byte per column and row. Strings live in their own blocks; a value names
// one by position.
//
// Nothing here is per series but the pages themselves: a series of one row costs a 16-byte page
// header and its values, not a set of vectors (docs/architecture.md, "Memtable").
// Not thread-safe: the Memtable's owner serialises writers and readers.
#pragma once

#include <atomic>
#include <deque>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <utility>
#include <unordered_map>
#include <vector>

#include "src/base/value_type.h"
#include "src/storage/column_buffer.h"
#include "src/storage/scan.h"
#include "src/storage/table_schema.h"

namespace gnomon::storage {

using PageRef = uint32_t;
inline constexpr PageRef kNoPage = UINT32_MAX;
// Rows [first, second) of a series' chain, in write order.
using RowRange = std::pair<size_t, size_t>;

// One row to append: its time and its values by column (ColumnId, 8-byte pattern; for strings
// the pattern is what StoreString returned). Columns are distinct.
struct PageRow {
  int64_t time;
  const ColumnId* columns;
  const uint64_t* values;
  uint32_t count;
};

class RowPages {
 public:
  RowPages() = default;
  ~RowPages();  // hands its blocks to the pool
  RowPages(const RowPages&) = delete;
  RowPages& operator=(const RowPages&) = delete;

  // Appends `row` to the chain whose last page is *last (kNoPage: a new chain; *first is then
  // set too). `rows_before` (the series' rows so far) and `rows_coming` (this row and those that
  // follow it in the same append within its hour slice) size a new page.
  // A page holds rows of one hour slice only (segment_format.h, kSliceWidthNs), so that its
  // statistics can stand for its rows in hourly aggregates; `prev_time` (the series' newest
  // time, INT64_MIN: none) estimates how many rows the slice has left for a new page.
  // Pages only ever grow at their end (so a reader's row count still names the rows it saw),
  // and no page's span grows over another's: a row joins the last page after its span when its
  // time is below `append_below` (the first time of the next page in time order; INT64_MAX when
  // the last page holds the series' newest row) and no gap of more than 16 of the page's
  // intervals lies between; inside the span, or below it above `insert_above` (the latest time
  // of the other pages that start before it; INT64_MAX: not below), as a late row of concurrent
  // writers' batches applied out of turn, which leaves the page's rows out of time order (the
  // page is marked so, and readers sort its rows); a page of its own otherwise, as does a
  // repeated time. So a reader can always put a series' pages in time order by their spans.
  enum class Placement {
    kAppended,            // after the last page's rows, in time order
    kAppendedOutOfOrder,  // after the last page's rows, inside or below its span
    kNewPage,             // a page of its own, after the last page in the chain
  };
  // What Append asks about the series' other pages, only when the answer decides (each costs a
  // walk of the chain): `first_time_after(high)` is `append_below` for the last page's latest
  // time `high`, `latest_time_before(low)` is `insert_above` for its earliest time `low`.
  struct Neighbours {
    const void* context = nullptr;
    int64_t (*first_time_after)(const void* context, int64_t high) = nullptr;
    int64_t (*latest_time_before)(const void* context, int64_t low) = nullptr;
  };
  Placement Append(const PageRow& row, uint32_t rows_before, uint32_t rows_coming, int64_t prev_time,
                   const Neighbours& neighbours, PageRef* first, PageRef* last);

  // Stores a string value; the returned pattern goes in a PageRow's values.
  uint64_t StoreString(std::string_view s);
  std::string_view String(uint64_t pattern) const;

  // The type of column `c` (set when a row first names it; kNull if none has).
  ValueType ColumnType(ColumnId c) const {
    return c < types_.size() ? types_[c] : ValueType::kNull;
  }
  void SetColumnType(ColumnId c, ValueType type);
  // Columns ids below this may have a type.
  ColumnId column_count() const { return static_cast<ColumnId>(types_.size()); }

  // Appends the times of the chain from `first` (up to `limit` rows) to *times.
  void GatherTimes(PageRef first, size_t limit, std::vector<int64_t>* times) const;
  // Appends the rows of `ranges` (ascending, disjoint) of the chain's column `c` to *out, whose
  // type must be set; a row without a value becomes a null. Returns whether any page of the
  // chain has the column (some row of the series ever named it).
  bool GatherColumn(PageRef first, ColumnId c, std::span<const RowRange> ranges,
                    ColumnBuffer* out) const;

  // Rows [from, to) of one page, as a reader takes them (in time order).
  struct PageSlice {
    PageRef ref;
    uint32_t from;
    uint32_t to;
    // Rows picks[from .. to) of the page instead, in that order (an unordered page's rows sorted
    // by time).
    bool picked = false;
  };
  // The page's times (ascending unless the page is unordered), `count` of them.
  const int64_t* Times(PageRef ref) const;
  // Appends column `c` of the slices' rows to *out (whose type must be set), in the slices'
  // order; a row without a value becomes a null. `picks` holds the rows of picked slices.
  // Returns whether any slice's page has the column.
  bool GatherColumnSlices(ColumnId c, std::span<const PageSlice> slices, std::span<const uint16_t> picks,
                          ColumnBuffer* out) const;

  // One page of a chain, as a reader walks it.
  struct FrozenStats;
  struct PageView {
    PageRef ref;
    PageRef next;
    uint32_t count;
    int64_t first_time;  // its span: earliest and latest time
    int64_t last_time;
    bool unordered;      // rows not in time order
    uint32_t shape;
    uint32_t serial;
    // Its frozen statistics, when the view was taken by WithFrozenStats and they were made:
    // a reader holding many views (a cached page order) then skips the slot look-up.
    const FrozenStats* frozen = nullptr;
  };
  PageView View(PageRef ref) const;
  // `view` with `frozen` set if its page takes no more rows and its statistics are made.
  PageView WithFrozenStats(PageView view) const;
  // Statistics of column `c` (of type `type`) over the rows of the page `view` was taken of
  // (while it still had view.count rows), cached: a page that takes no more rows (another
  // follows it) is then answered from the view alone, without touching the page; a chain's last
  // page, which still grows, from a cache checked against its row count.
  ColumnStats PageStats(const PageView& view, ColumnId c, ValueType type) const;
  // Statistics of column `c` over rows [from, to) of the page `view` was taken of, made anew.
  ColumnStats RunStats(const PageView& view, ColumnId c, ValueType type, uint32_t from, uint32_t to) const;
  // Pages of fewer rows are never asked for statistics (a reader reads their rows: statistics
  // would cost more than they save); a page of this many rows or more has its statistics made
  // when it takes its last row, so the first aggregate over fresh data finds them ready.
  static constexpr uint32_t kMinStatsPageRows = 32;

  // Cache hints for PageStats of `view` and `columns` (ids; -1 entries skipped), issued a few
  // pages ahead: step 0 its frozen statistics' slot, step 1 (the slot fetched) the statistics.
  void PrefetchStats(const PageView& view, int step, std::span<const int> columns) const;
  // Cache hints for an append to the chain ending at `last`: its header, then its free slots.
  void PrefetchHeader(PageRef last) const;
  void PrefetchTail(PageRef last) const;

  // Heap bytes held: blocks, string blocks, shapes, cached page statistics.
  size_t bytes() const {
    // A node of unordered_spans_: key, span, next pointer, hash, and its allocation's header.
    return bytes_ + stats_bytes_.load(std::memory_order_relaxed) + unordered_spans_.size() * 48;
  }

  // Freed memtables keep up to `bytes` of their blocks for the next ones (process-wide; the
  // engine sets it to its memtable budget). 0: none kept.
  static void SetBlockPoolLimit(size_t bytes);
  static size_t BlockPoolBytes();

 private:
  struct Header {
    PageRef next;
    uint16_t capacity;
    uint16_t count;
    uint32_t shape;
    uint32_t sparse : 1;     // 1: validity bytes follow the values
    uint32_t unordered : 1;  // 1: the rows are not in time order (a late row joined the page)
    uint32_t serial : 30;    // the page's number in this memtable (its frozen statistics' slot)
  };
  static_assert(sizeof(Header) == 16);

  Header* HeaderAt(PageRef ref) const;
  // Earliest and latest time of page `h`.
  std::pair<int64_t, int64_t> Span(const Header* h) const;
  template <typename RowAt>
  void AppendPageRows(const Header* h, ColumnId c, size_t n, RowAt row_at, bool contiguous,
                      ColumnBuffer* out) const;
  // Appends rows `picks` of page `h` of column `c` to *out, in that order.
  void AppendPageColumnPicks(const Header* h, ColumnId c, std::span<const uint16_t> picks,
                             ColumnBuffer* out) const;
  // Statistics of the column at position `p` of page `h`'s shape, over rows [from, to) (all of
  // the page's rows by default).
  ColumnStats ComputePageStats(const Header* h, int32_t p, ValueType type, uint32_t from = 0,
                               uint32_t to = UINT32_MAX) const;
  // PageStats' slow paths: a page that takes no more rows (made once, under stats_mu_), and a
  // chain's last page (the count-checked map).
  ColumnStats MakeFrozenStats(const Header* h, int32_t p, ValueType type) const;
  // Makes the frozen statistics of every typed column of page `h`, which has just taken its
  // last row (a page now follows it), if it holds kMinStatsPageRows rows or more. Writers only.
  void FreezeStats(const Header* h);
  // Page `h`'s frozen statistics, made (every entry not ready) if it had none; REQUIRES stats_mu_.
  FrozenStats* FrozenStatsLocked(const Header* h) const;
  ColumnStats LastPageStats(PageRef ref, ColumnId c, int32_t p, ValueType type) const;
  // Starts a page for `row` after `page` (nullptr: the chain's first), sized as Append says, and
  // fills slot_of with the row's value positions in it.
  Header* StartPage(const PageRow& row, uint32_t rows_before, uint32_t rows_coming, int64_t prev_time,
                    bool late, Header* page, PageRef* first, PageRef* last, int32_t* slot_of);
  // Appends rows [from, to) of page `h` of column `c` to *out (GatherColumn's work on one page).
  void AppendPageColumn(const Header* h, ColumnId c, size_t from, size_t to, ColumnBuffer* out) const;
  PageRef NewPage(uint32_t shape, bool sparse, uint32_t capacity);
  uint32_t InternShape(const std::vector<ColumnId>& columns);
  // Words (8 bytes) a page takes.
  static size_t PageWords(size_t columns, bool sparse, uint32_t capacity);

  std::vector<std::unique_ptr<uint64_t[]>> blocks_;
  std::vector<bool> shared_block_;  // by block: a pooled 1 MB block (else a page's own)
  size_t block_used_ = 0;  // words used in blocks_.back() (when it is a shared block)
  bool last_block_shared_ = false;

  std::vector<std::vector<ColumnId>> shapes_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> shape_index_;  // hash -> shapes
  std::vector<std::vector<int32_t>> shape_position_;  // shape -> column -> position or -1

  std::vector<std::unique_ptr<char[]>> string_blocks_;
  size_t string_used_ = 0;

  std::vector<ValueType> types_;
  struct CachedStats {
    uint32_t count;  // page rows when computed
    ColumnStats stats;
  };
  mutable std::mutex stats_mu_;  // guards stats_ and the making of frozen statistics
  // Pages that still take rows (the last of their chain): (page << 32 | column) -> stats.
  mutable std::unordered_map<uint64_t, CachedStats> stats_;
  // Pages that take no more rows (another page follows them; only a chain's last page grows):
  // statistics per column of their shape, made once and then read without a lock; indexed by
  // Header::serial. Entries are added by writers only (NewPage), so readers, who share the
  // memtable with no writer, see a deque that does not change under them.
 public:
  struct FrozenStats {
    std::atomic<uint64_t> ready{0};  // bit p: stats[p] is set
    uint32_t size = 0;
    ColumnStats stats[1];  // by position in the page's shape; `size` of them (allocated so)
    static FrozenStats* Make(size_t columns);
    static void Free(FrozenStats* f);
  };

 private:
  // In chunks of kStatsChunk slots, each made when a reader first needs one of its pages (most
  // pages are never asked: at ten million series a slot per page would cost 8 bytes a row); the
  // chunk directory grows with the pages (writers) and is read by readers.
  static constexpr uint32_t kStatsChunkBits = 12;
  using StatsChunk = std::atomic<FrozenStats*>[];
  mutable std::deque<std::atomic<std::atomic<FrozenStats*>*>> stats_chunks_;
  uint32_t pages_made_ = 0;
  // The slot of page `serial`, its chunk made if needed; REQUIRES stats_mu_.
  std::atomic<FrozenStats*>& StatsSlotLocked(uint32_t serial) const;
  // The slot of page `serial`, or nullptr while its chunk has not been made.
  std::atomic<FrozenStats*>* StatsSlot(uint32_t serial) const {
    std::atomic<FrozenStats*>* chunk = stats_chunks_[serial >> kStatsChunkBits].load(std::memory_order_acquire);
    return chunk == nullptr ? nullptr : &chunk[serial & ((1u << kStatsChunkBits) - 1)];
  }
  // Earliest and latest time of each unordered page (few: pages a late row joined), by serial;
  // changed by writers only.
  std::unordered_map<uint32_t, std::pair<int64_t, int64_t>> unordered_spans_;
  mutable std::atomic<size_t> stats_bytes_{0};
  std::vector<ColumnId> scratch_columns_;
  std::vector<int32_t> scratch_slots_;
  size_t bytes_ = 0;
};

// Fills columns `columns` of *out (emptied by the caller) by `gather(column id, buffer)`, which
// returns whether any page read has the column: a column no page has stays absent (kNull), as
// in a segment.
template <typename Gather>
inline void GatherEachColumn(const RowPages& pages, const std::vector<int>& columns, std::vector<ColumnBuffer>* out,
                             Gather gather) {
  int max_col = -1;
  for (int c : columns) max_col = std::max(max_col, c);
  if (out->size() < static_cast<size_t>(max_col + 1)) out->resize(max_col + 1);
  for (int c : columns) {
    if (c < 0) continue;
    ColumnBuffer& dst = (*out)[c];
    dst.type = pages.ColumnType(static_cast<ColumnId>(c));
    if (dst.type == ValueType::kNull) continue;
    if (!gather(static_cast<ColumnId>(c), &dst)) {
      ClearToAbsent(&dst);
      continue;
    }
    if (dst.null_count == 0) dst.validity.clear();
  }
}

}  // namespace gnomon::storage
