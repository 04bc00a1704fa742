#include "src/storage/memtable_pages.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <tuple>
#include <type_traits>

#include "src/base/check.h"
#include "src/base/hash.h"
#include "src/base/time_util.h"
#include "src/storage/column_stats.h"
#include "src/storage/segment_format.h"

namespace gnomon::storage {
namespace {

constexpr size_t kBlockWords = size_t{1} << 17;  // 1 MB
constexpr int kOffsetBits = 17;
constexpr size_t kStringBlockBytes = 256 * 1024;
constexpr uint32_t kMaxPageRows = 1024;
constexpr size_t kHeaderWords = 2;

// How far into its slice `t` is, in [0, kSliceWidthNs).
int64_t OffsetInSlice(int64_t t) {
  const int64_t rem = t % kSliceWidthNs;
  return rem < 0 ? rem + kSliceWidthNs : rem;
}

// Shared 1 MB blocks that freed memtables hand back for the next ones: a memtable filled after a
// flush would otherwise fault in (and the kernel zero) every page of its budget again, a tenth of
// the server's CPU at 4,000 hosts.
class BlockPool {
 public:
  static BlockPool& Get() {
    static BlockPool* pool = new BlockPool;  // never destroyed: memtables may outlive statics
    return *pool;
  }
  std::unique_ptr<uint64_t[]> Take() {
    {
      std::lock_guard lock(mu_);
      if (!free_.empty()) {
        auto block = std::move(free_.back());
        free_.pop_back();
        return block;
      }
    }
    return std::make_unique_for_overwrite<uint64_t[]>(kBlockWords);
  }
  void Give(std::unique_ptr<uint64_t[]> block) {
    std::lock_guard lock(mu_);
    if ((free_.size() + 1) * kBlockWords * 8 <= limit_bytes_) free_.push_back(std::move(block));
  }
  void SetLimit(size_t bytes) {
    std::lock_guard lock(mu_);
    limit_bytes_ = bytes;
    while (free_.size() * kBlockWords * 8 > limit_bytes_) free_.pop_back();
  }
  size_t FreeBytes() {
    std::lock_guard lock(mu_);
    return free_.size() * kBlockWords * 8;
  }

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<uint64_t[]>> free_;
  size_t limit_bytes_ = 0;
};

}  // namespace

void RowPages::SetBlockPoolLimit(size_t bytes) { BlockPool::Get().SetLimit(bytes); }
size_t RowPages::BlockPoolBytes() { return BlockPool::Get().FreeBytes(); }

RowPages::~RowPages() {
  for (auto& c : stats_chunks_) {
    std::atomic<FrozenStats*>* chunk = c.load(std::memory_order_relaxed);
    if (chunk == nullptr) continue;
    for (uint32_t i = 0; i < (1u << kStatsChunkBits); ++i) FrozenStats::Free(chunk[i].load(std::memory_order_relaxed));
    delete[] chunk;
  }
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (shared_block_[i]) BlockPool::Get().Give(std::move(blocks_[i]));
  }
}

size_t RowPages::PageWords(size_t columns, bool sparse, uint32_t capacity) {
  size_t words = kHeaderWords + capacity * (1 + columns);
  if (sparse) words += (columns * capacity + 7) / 8;
  return words;
}

RowPages::Header* RowPages::HeaderAt(PageRef ref) const {
  return reinterpret_cast<Header*>(blocks_[ref >> kOffsetBits].get() + (ref & ((1u << kOffsetBits) - 1)));
}

uint32_t RowPages::InternShape(const std::vector<ColumnId>& columns) {
  const uint64_t h = Hash64(columns.data(), columns.size() * sizeof(ColumnId));
  std::vector<uint32_t>& bucket = shape_index_[h];
  for (uint32_t s : bucket) {
    if (shapes_[s] == columns) return s;
  }
  const auto id = static_cast<uint32_t>(shapes_.size());
  shapes_.push_back(columns);
  std::vector<int32_t> position;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (position.size() <= columns[i]) position.resize(columns[i] + 1, -1);
    position[columns[i]] = static_cast<int32_t>(i);
  }
  bytes_ += columns.size() * sizeof(ColumnId) + position.size() * sizeof(int32_t) + 96;
  shape_position_.push_back(std::move(position));
  bucket.push_back(id);
  return id;
}

PageRef RowPages::NewPage(uint32_t shape, bool sparse, uint32_t capacity) {
  const size_t words = PageWords(shapes_[shape].size(), sparse, capacity);
  PageRef ref;
  if (words > kBlockWords) {
    // A page of very many columns: a block of its own (its offset is 0). Appends go on in a
    // shared block opened afresh.
    blocks_.push_back(std::make_unique<uint64_t[]>(words));
    shared_block_.push_back(false);
    bytes_ += words * 8;
    last_block_shared_ = false;
    ref = static_cast<PageRef>((blocks_.size() - 1) << kOffsetBits);
  } else {
    if (!last_block_shared_ || block_used_ + words > kBlockWords) {
      // Not zeroed: pages are written before they are read.
      blocks_.push_back(BlockPool::Get().Take());
      shared_block_.push_back(true);
      bytes_ += kBlockWords * 8;
      block_used_ = 0;
      last_block_shared_ = true;
    }
    ref = static_cast<PageRef>(((blocks_.size() - 1) << kOffsetBits) | block_used_);
    block_used_ += words;
  }
  GNOMON_CHECK_MSG(blocks_.size() < (size_t{1} << (32 - kOffsetBits)), "memtable larger than 32 GB");
  Header* h = HeaderAt(ref);
  h->next = kNoPage;
  h->capacity = static_cast<uint16_t>(capacity);
  h->count = 0;
  h->shape = shape;
  h->sparse = sparse ? 1 : 0;
  h->unordered = 0;
  GNOMON_CHECK_MSG(pages_made_ < (uint32_t{1} << 30), "too many memtable pages");
  h->serial = pages_made_++;
  if ((h->serial >> kStatsChunkBits) >= stats_chunks_.size()) stats_chunks_.emplace_back(nullptr);
  return ref;
}

void RowPages::SetColumnType(ColumnId c, ValueType type) {
  if (types_.size() <= c) types_.resize(c + 1, ValueType::kNull);
  types_[c] = type;
}

RowPages::Placement RowPages::Append(const PageRow& row, uint32_t rows_before, uint32_t rows_coming,
                                     int64_t prev_time, const Neighbours& neighbours, PageRef* first,
                                     PageRef* last) {
  Header* page = *last == kNoPage ? nullptr : HeaderAt(*last);
  scratch_slots_.resize(row.count);
  int32_t* slot_of = scratch_slots_.data();  // the row's values by position in the page's shape
  const int64_t slice = SliceOf(row.time);
  const int64_t* page_times =
      page == nullptr ? nullptr : reinterpret_cast<const int64_t*>(reinterpret_cast<uint64_t*>(page) + kHeaderWords);
  bool fits = page != nullptr && page->count < page->capacity && SliceOf(page_times[0]) == slice;
  if (fits) {
    const std::vector<int32_t>& pos = shape_position_[page->shape];
    const size_t shape_size = shapes_[page->shape].size();
    fits = page->sparse || row.count == shape_size;
    for (uint32_t i = 0; fits && i < row.count; ++i) {
      const ColumnId c = row.columns[i];
      fits = c < pos.size() && pos[c] >= 0;
      if (fits) slot_of[i] = pos[c];
    }
  }
  // The row goes after the page's rows (pages only grow at the end, so a reader's row count
  // still names the rows it saw). In time it may come after the page's span, or (late) inside it
  // or below it, as long as no other page's span is reached: then the page's rows are no longer
  // in time order, and the page says so.
  bool out_of_order = false;
  int64_t low = 0, high = 0;
  if (fits) {
    std::tie(low, high) = Span(page);
    if (row.time > high) {
      // Not across a long gap (more than 16 of the page's intervals: a whole late batch of a
      // writer): its rows would come later, then fill this page out of order or find no room in
      // it; they get a page of their own instead. Short gaps (a few rows late) stay in the page.
      const bool gap = page->count >= 2 && static_cast<uint64_t>(row.time) - static_cast<uint64_t>(high) >
                                               16 * ((static_cast<uint64_t>(high) - static_cast<uint64_t>(low)) / (page->count - 1));
      fits = !gap && row.time < neighbours.first_time_after(neighbours.context, high);
    } else {
      // A repeat of a time goes to a page of its own.
      fits = std::find(page_times, page_times + page->count, row.time) == page_times + page->count &&
             (row.time > low || row.time > neighbours.latest_time_before(neighbours.context, low));
      out_of_order = fits;
    }
  }
  const bool late = prev_time != INT64_MIN && row.time <= prev_time;
  if (!fits) page = StartPage(row, rows_before, rows_coming, prev_time, late, page, first, last, slot_of);
  uint64_t* words = reinterpret_cast<uint64_t*>(page);
  const size_t cap = page->capacity;
  const size_t ncols = shapes_[page->shape].size();
  const size_t at = page->count;
  int64_t* times = reinterpret_cast<int64_t*>(words + kHeaderWords);
  uint64_t* values = words + kHeaderWords + cap;
  times[at] = row.time;
  for (uint32_t i = 0; i < row.count; ++i) values[slot_of[i] * cap + at] = row.values[i];
  if (page->sparse) {
    uint8_t* valid = reinterpret_cast<uint8_t*>(values + ncols * cap);
    for (size_t c = 0; c < ncols; ++c) valid[c * cap + at] = 0;
    for (uint32_t i = 0; i < row.count; ++i) valid[slot_of[i] * cap + at] = 1;
  }
  ++page->count;
  if (!fits) return Placement::kNewPage;
  if (out_of_order || page->unordered) {
    // An unordered page's span is kept here: its first and last rows no longer give it.
    page->unordered = 1;
    unordered_spans_[page->serial] = {std::min(low, row.time), std::max(high, row.time)};
  }
  return out_of_order ? Placement::kAppendedOutOfOrder : Placement::kAppended;
}

std::pair<int64_t, int64_t> RowPages::Span(const Header* h) const {
  const int64_t* t = reinterpret_cast<const int64_t*>(reinterpret_cast<const uint64_t*>(h) + kHeaderWords);
  if (!h->unordered) return {t[0], t[h->count - 1]};
  return unordered_spans_.at(h->serial);
}

RowPages::Header* RowPages::StartPage(const PageRow& row, uint32_t rows_before, uint32_t rows_coming,
                                      int64_t prev_time, bool late, Header* page, PageRef* first,
                                      PageRef* last, int32_t* slot_of) {
  // The shape of the last page with the row's new columns added.
  scratch_columns_.clear();
  if (page != nullptr) scratch_columns_ = shapes_[page->shape];
  for (uint32_t i = 0; i < row.count; ++i) {
    if (std::find(scratch_columns_.begin(), scratch_columns_.end(), row.columns[i]) == scratch_columns_.end()) {
      scratch_columns_.push_back(row.columns[i]);
    }
  }
  const uint32_t shape = InternShape(scratch_columns_);
  const bool sparse = row.count < scratch_columns_.size() || (page != nullptr && page->sparse);
  // Pages grow with the series (half its rows so far), so a long series has few headers and
  // a series of a row or two wastes little; rows arriving together share a page.
  uint32_t capacity = std::clamp<uint32_t>(std::max(rows_before / 2, rows_coming), 1, kMaxPageRows);
  if (late) {
    // A late row: its page is for the late rows that came with it.
    capacity = std::clamp<uint32_t>(rows_coming, 1, kMaxPageRows);
  } else if (prev_time != INT64_MIN) {
    // No more than the rows the slice has room for at the series' interval, but room for the
    // rows of this append in the slice (after a gap the interval guess is too long).
    const auto interval = static_cast<uint64_t>(row.time) - static_cast<uint64_t>(prev_time);
    const uint64_t left = static_cast<uint64_t>(kSliceWidthNs - 1 - OffsetInSlice(row.time)) / interval + 1;
    capacity = static_cast<uint32_t>(
        std::max<uint64_t>(std::max<uint32_t>(rows_coming, 1), std::min<uint64_t>(capacity, left)));
    capacity = std::min(capacity, kMaxPageRows);
  }
  const PageRef ref = NewPage(shape, sparse, capacity);
  if (page != nullptr) {
    page->next = ref;
    FreezeStats(page);
  }
  if (*first == kNoPage) *first = ref;
  *last = ref;
  const std::vector<int32_t>& pos = shape_position_[shape];
  for (uint32_t i = 0; i < row.count; ++i) slot_of[i] = pos[row.columns[i]];
  return HeaderAt(ref);
}

uint64_t RowPages::StoreString(std::string_view s) {
  const size_t need = 4 + s.size();
  if (string_blocks_.empty() || string_used_ + need > kStringBlockBytes) {
    const size_t size = std::max(kStringBlockBytes, need);
    string_blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    bytes_ += size;
    string_used_ = 0;
  }
  char* at = string_blocks_.back().get() + string_used_;
  const auto len = static_cast<uint32_t>(s.size());
  std::memcpy(at, &len, 4);
  std::memcpy(at + 4, s.data(), s.size());
  const uint64_t pattern = (static_cast<uint64_t>(string_blocks_.size() - 1) << 32) | string_used_;
  string_used_ += need;
  return pattern;
}

std::string_view RowPages::String(uint64_t pattern) const {
  const char* at = string_blocks_[pattern >> 32].get() + static_cast<uint32_t>(pattern);
  uint32_t len;
  std::memcpy(&len, at, 4);
  return std::string_view(at + 4, len);
}

const int64_t* RowPages::Times(PageRef ref) const {
  return reinterpret_cast<const int64_t*>(reinterpret_cast<const uint64_t*>(HeaderAt(ref)) + kHeaderWords);
}


bool RowPages::GatherColumnSlices(ColumnId c, std::span<const PageSlice> slices, std::span<const uint16_t> picks,
                                  ColumnBuffer* out) const {
  bool named = false;
  for (const PageSlice& s : slices) {
    const Header* h = HeaderAt(s.ref);
    const std::vector<int32_t>& pos = shape_position_[h->shape];
    named |= c < pos.size() && pos[c] >= 0;
  }
  if (!named) return false;
  for (const PageSlice& s : slices) {
    if (s.picked) {
      AppendPageColumnPicks(HeaderAt(s.ref), c, picks.subspan(s.from, s.to - s.from), out);
    } else {
      AppendPageColumn(HeaderAt(s.ref), c, s.from, s.to, out);
    }
  }
  return true;
}

void RowPages::GatherTimes(PageRef first, size_t limit, std::vector<int64_t>* times) const {
  for (PageRef ref = first; ref != kNoPage && limit > 0;) {
    const Header* h = HeaderAt(ref);
    const auto* t = reinterpret_cast<const int64_t*>(reinterpret_cast<const uint64_t*>(h) + kHeaderWords);
    const size_t n = std::min<size_t>(h->count, limit);
    times->insert(times->end(), t, t + n);
    limit -= n;
    ref = h->next;
  }
}

// Appends column `c` of `n` rows of page `h` to *out, the k-th being page row row_at(k); rows
// from `row_at(0)` on when `contiguous` (then numbers are copied in one go).
template <typename RowAt>
void RowPages::AppendPageRows(const Header* h, ColumnId c, size_t n, RowAt row_at, bool contiguous,
                              ColumnBuffer* out) const {
  const bool is_string = out->type == ValueType::kString;
  const std::vector<int32_t>& pos = shape_position_[h->shape];
  const int32_t p = c < pos.size() ? pos[c] : -1;
  const size_t cap = h->capacity;
  const uint64_t* values = reinterpret_cast<const uint64_t*>(h) + kHeaderWords + cap;
  const uint8_t* valid = h->sparse ? reinterpret_cast<const uint8_t*>(values + shapes_[h->shape].size() * cap) : nullptr;
  const size_t base = is_string ? out->strings.size() : out->bits.size();
  auto has = [&](size_t row) { return p >= 0 && (valid == nullptr || valid[p * cap + row] != 0); };
  // Rows may lack the column: validity for all rows gathered so far, then this page's.
  const bool page_nulls = p < 0 || valid != nullptr;
  if (page_nulls && out->validity.size() < base) out->validity.assign(base, 1);
  if (is_string) {
    out->strings.resize(base + n);
    for (size_t k = 0; k < n; ++k) {
      if (has(row_at(k))) out->strings[base + k] = String(values[p * cap + row_at(k)]);
    }
  } else if (p >= 0 && contiguous && n > 0) {
    const uint64_t* from = values + p * cap + row_at(0);
    out->bits.insert(out->bits.end(), from, from + n);
    if (valid != nullptr) {
      for (size_t k = 0; k < n; ++k) {
        if (!has(row_at(k))) out->bits[base + k] = 0;
      }
    }
  } else {
    out->bits.resize(base + n, 0);
    if (p >= 0) {
      for (size_t k = 0; k < n; ++k) {
        if (has(row_at(k))) out->bits[base + k] = values[p * cap + row_at(k)];
      }
    }
  }
  if (page_nulls || !out->validity.empty()) {
    out->validity.resize(base + n, 1);
    for (size_t k = 0; k < n; ++k) {
      if (!has(row_at(k))) {
        out->validity[base + k] = 0;
        ++out->null_count;
      }
    }
  }
}

void RowPages::AppendPageColumn(const Header* h, ColumnId c, size_t from, size_t to,
                                ColumnBuffer* out) const {
  AppendPageRows(h, c, to - from, [from](size_t k) { return from + k; }, true, out);
}

void RowPages::AppendPageColumnPicks(const Header* h, ColumnId c, std::span<const uint16_t> picks,
                                     ColumnBuffer* out) const {
  AppendPageRows(h, c, picks.size(), [picks](size_t k) { return size_t{picks[k]}; }, false, out);
}

bool RowPages::GatherColumn(PageRef first, ColumnId c, std::span<const RowRange> ranges,
                            ColumnBuffer* out) const {
  bool named = false;
  size_t row = 0;  // the chain's row at the start of the page
  size_t k = 0;    // the first range not wholly before the page
  for (PageRef ref = first; ref != kNoPage;) {
    const Header* h = HeaderAt(ref);
    const std::vector<int32_t>& pos = shape_position_[h->shape];
    named |= c < pos.size() && pos[c] >= 0;
    const size_t page_end = row + h->count;
    while (k < ranges.size() && ranges[k].second <= row) ++k;
    for (size_t j = k; j < ranges.size() && ranges[j].first < page_end; ++j) {
      const size_t from = std::max(ranges[j].first, row);
      const size_t to = std::min(ranges[j].second, page_end);
      if (from < to) AppendPageColumn(h, c, from - row, to - row, out);
    }
    row = page_end;
    ref = h->next;
  }
  return named;
}

RowPages::PageView RowPages::View(PageRef ref) const {
  const Header* h = HeaderAt(ref);
  const auto [low, high] = Span(h);
  return PageView{ref, h->next, h->count, low, high, h->unordered != 0, h->shape, h->serial};
}

ColumnStats RowPages::ComputePageStats(const Header* h, int32_t p, ValueType type, uint32_t from,
                                       uint32_t to) const {
  to = std::min<uint32_t>(to, h->count);
  const size_t cap = h->capacity;
  const uint64_t* values = reinterpret_cast<const uint64_t*>(h) + kHeaderWords + cap;
  const uint8_t* valid =
      h->sparse ? reinterpret_cast<const uint8_t*>(values + shapes_[h->shape].size() * cap) + p * cap + from
                : nullptr;
  return ComputeStats(type, values + p * cap + from, valid, to - from);
}

ColumnStats RowPages::RunStats(const PageView& view, ColumnId c, ValueType type, uint32_t from, uint32_t to) const {
  const std::vector<int32_t>& pos = shape_position_[view.shape];
  const int32_t p = c < pos.size() ? pos[c] : -1;
  if (p < 0) return ColumnStats{};
  return ComputePageStats(HeaderAt(view.ref), p, type, from, to);
}

RowPages::FrozenStats* RowPages::FrozenStats::Make(size_t columns) {
  // One allocation: the statistics follow the header, so a reader misses the cache once.
  void* raw = ::operator new(sizeof(FrozenStats) + (columns - 1) * sizeof(ColumnStats));
  auto* f = new (raw) FrozenStats;
  f->size = static_cast<uint32_t>(columns);
  for (size_t i = 1; i < columns; ++i) new (&f->stats[i]) ColumnStats();
  return f;
}

void RowPages::FrozenStats::Free(FrozenStats* f) {
  if (f == nullptr) return;
  static_assert(std::is_trivially_destructible_v<ColumnStats>);
  f->~FrozenStats();
  ::operator delete(f);
}

std::atomic<RowPages::FrozenStats*>& RowPages::StatsSlotLocked(uint32_t serial) const {
  std::atomic<std::atomic<FrozenStats*>*>& dir = stats_chunks_[serial >> kStatsChunkBits];
  std::atomic<FrozenStats*>* chunk = dir.load(std::memory_order_relaxed);
  if (chunk == nullptr) {
    chunk = new std::atomic<FrozenStats*>[1u << kStatsChunkBits]();
    stats_bytes_.fetch_add(sizeof(std::atomic<FrozenStats*>) << kStatsChunkBits, std::memory_order_relaxed);
    dir.store(chunk, std::memory_order_release);
  }
  return chunk[serial & ((1u << kStatsChunkBits) - 1)];
}

RowPages::PageView RowPages::WithFrozenStats(PageView view) const {
  if (view.next == kNoPage) return view;
  const std::atomic<FrozenStats*>* slot = StatsSlot(view.serial);
  view.frozen = slot == nullptr ? nullptr : slot->load(std::memory_order_acquire);
  return view;
}

void RowPages::PrefetchStats(const PageView& view, int step, std::span<const int> columns) const {
  const FrozenStats* f = view.frozen;
  if (f == nullptr) {
    std::atomic<FrozenStats*>* slot = StatsSlot(view.serial);
    if (slot == nullptr) return;
    if (step == 0) {
      __builtin_prefetch(slot);
      return;
    }
    f = slot->load(std::memory_order_relaxed);
  } else if (step == 0) {
    return;
  }
  if (f == nullptr) return;
  __builtin_prefetch(f);  // its ready bits
  const std::vector<int32_t>& pos = shape_position_[view.shape];
  for (int c : columns) {
    // (No look at f->size: the page's shape has position p, and reading f here would wait.)
    const int32_t p = c >= 0 && static_cast<size_t>(c) < pos.size() ? pos[c] : -1;
    if (p < 0) continue;
    // A statistics entry (72 bytes) may straddle two cache lines.
    const char* at = reinterpret_cast<const char*>(&f->stats[p]);
    __builtin_prefetch(at);
    __builtin_prefetch(at + sizeof(ColumnStats) - 1);
  }
}

ColumnStats RowPages::PageStats(const PageView& view, ColumnId c, ValueType type) const {
  const std::vector<int32_t>& pos = shape_position_[view.shape];
  const int32_t p = c < pos.size() ? pos[c] : -1;
  if (p < 0) return ColumnStats{};
  if (view.next != kNoPage && shapes_[view.shape].size() <= 64) {
    // A page that takes no more rows: its statistics, once made, are read without a lock and
    // without touching the page.
    const FrozenStats* f = view.frozen;
    if (f == nullptr) {
      const std::atomic<FrozenStats*>* slot = StatsSlot(view.serial);
      f = slot == nullptr ? nullptr : slot->load(std::memory_order_acquire);
    }
    if (f != nullptr && (f->ready.load(std::memory_order_acquire) >> p & 1)) return f->stats[p];
    return MakeFrozenStats(HeaderAt(view.ref), p, type);
  }
  return LastPageStats(view.ref, c, p, type);
}

ColumnStats RowPages::MakeFrozenStats(const Header* h, int32_t p, ValueType type) const {
  std::lock_guard lock(stats_mu_);
  FrozenStats* made = FrozenStatsLocked(h);
  if (!(made->ready.load(std::memory_order_relaxed) >> p & 1)) {
    made->stats[p] = ComputePageStats(h, p, type);
    made->ready.fetch_or(uint64_t{1} << p, std::memory_order_release);
  }
  return made->stats[p];
}

void RowPages::FreezeStats(const Header* h) {
  const std::vector<ColumnId>& shape = shapes_[h->shape];
  if (h->count < kMinStatsPageRows || shape.size() > 64) return;
  std::lock_guard lock(stats_mu_);
  FrozenStats* made = FrozenStatsLocked(h);
  uint64_t ready = made->ready.load(std::memory_order_relaxed);
  for (size_t p = 0; p < shape.size(); ++p) {
    const ValueType type = ColumnType(shape[p]);
    if (ready >> p & 1 || type == ValueType::kNull) continue;
    made->stats[p] = ComputePageStats(h, static_cast<int32_t>(p), type);
    ready |= uint64_t{1} << p;
  }
  made->ready.store(ready, std::memory_order_release);
}

RowPages::FrozenStats* RowPages::FrozenStatsLocked(const Header* h) const {
  std::atomic<FrozenStats*>& slot = StatsSlotLocked(h->serial);
  FrozenStats* made = slot.load(std::memory_order_relaxed);
  if (made == nullptr) {
    // Published before any entry is set: readers go by the ready bits.
    const size_t shape_size = shapes_[h->shape].size();
    made = FrozenStats::Make(shape_size);
    stats_bytes_.fetch_add(sizeof(FrozenStats) + shape_size * sizeof(ColumnStats), std::memory_order_relaxed);
    slot.store(made, std::memory_order_release);
  }
  return made;
}

ColumnStats RowPages::LastPageStats(PageRef ref, ColumnId c, int32_t p, ValueType type) const {
  const Header* h = HeaderAt(ref);
  const uint64_t key = (static_cast<uint64_t>(ref) << 32) | c;
  {
    std::lock_guard lock(stats_mu_);
    auto it = stats_.find(key);
    if (it != stats_.end() && it->second.count == h->count) return it->second.stats;
  }
  const ColumnStats stats = ComputePageStats(h, p, type);
  std::lock_guard lock(stats_mu_);
  // A node of the map (key, value, next pointer, hash) and its allocation.
  if (stats_.insert_or_assign(key, CachedStats{h->count, stats}).second) {
    stats_bytes_.fetch_add(sizeof(CachedStats) + 48, std::memory_order_relaxed);
  }
  return stats;
}

void RowPages::PrefetchHeader(PageRef last) const {
  if (last != kNoPage) __builtin_prefetch(HeaderAt(last));
}

void RowPages::PrefetchTail(PageRef last) const {
  if (last == kNoPage) return;
  const Header* h = HeaderAt(last);
  const uint64_t* words = reinterpret_cast<const uint64_t*>(h);
  const size_t cap = h->capacity;
  __builtin_prefetch(words + kHeaderWords + h->count, 1);
  const size_t ncols = shapes_[h->shape].size();
  for (size_t c = 0; c < ncols; ++c) __builtin_prefetch(words + kHeaderWords + cap * (1 + c) + h->count, 1);
}

}  // namespace gnomon::storage
