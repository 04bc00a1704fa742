// Memtable reads of a series whose pages can be put in time order: the page order (cached for
// long chains), the rows in a time range page by page, and statistics offered in place of rows.
#include <algorithm>
#include <utility>

#include "src/storage/column_stats.h"
#include "src/storage/memtable.h"
#include "src/storage/scan_predicate.h"
#include "src/storage/segment_format.h"

namespace gnomon::storage {

Memtable::PageOrder::~PageOrder() {
  if (charged != nullptr) charged->fetch_sub(run_bytes, std::memory_order_relaxed);
}

bool Memtable::PageOrder::RunKey(size_t first, size_t end, ColumnId c, uint64_t* key) {
  // 20 bits of first page, 16 of run length, 28 of column.
  if (first >= (size_t{1} << 20) || end - first >= (size_t{1} << 16) || c >= (ColumnId{1} << 28)) return false;
  *key = (static_cast<uint64_t>(first) << 44) | (static_cast<uint64_t>(end - first) << 28) | c;
  return true;
}

void Memtable::PageOrder::FindRun(size_t first, size_t end, const std::vector<int>& columns,
                                  std::vector<ColumnStats>* into, std::vector<uint8_t>* found) const {
  std::lock_guard lock(runs_mu);
  for (size_t k = 0; k < columns.size(); ++k) {
    uint64_t key;
    if (columns[k] < 0 || !RunKey(first, end, static_cast<ColumnId>(columns[k]), &key)) continue;
    auto it = run_stats.find(key);
    if (it == run_stats.end()) continue;
    (*into)[k] = it->second;
    (*found)[k] = 1;
  }
}

void Memtable::PageOrder::KeepRun(size_t first, size_t end, const std::vector<int>& columns,
                                  const std::vector<ColumnStats>& stats, const std::vector<uint8_t>& found) const {
  std::lock_guard lock(runs_mu);
  for (size_t k = 0; k < columns.size(); ++k) {
    uint64_t key;
    if (found[k] || columns[k] < 0 || !RunKey(first, end, static_cast<ColumnId>(columns[k]), &key)) continue;
    if (run_stats.emplace(key, stats[k]).second) {
      // A node of the map (key, value, next pointer, hash) and its allocation.
      constexpr size_t kEntryBytes = sizeof(ColumnStats) + 48;
      run_bytes += kEntryBytes;
      charged->fetch_add(kEntryBytes, std::memory_order_relaxed);
    }
  }
}

std::shared_ptr<Memtable::PageOrder> Memtable::ComputePageOrder(const SeriesState& st) const {
  auto order = std::make_shared<PageOrder>();
  order->rows = st.rows;
  order->edits = edits_;
  uint32_t row = 0;
  for (PageRef ref = st.first_page; ref != kNoPage;) {
    const RowPages::PageView page = pages_.View(ref);
    order->pages.push_back({page, page.count, row});
    row += page.count;
    ref = page.next;
  }
  if (st.sorted) return order;
  // Out of order: each page is still ascending and no page's span grew over another's
  // (RowPages::Append), so the pages sorted by first time are the rows in time order, unless a
  // repeated time or a row that found no room in place gave two pages overlapping spans.
  std::sort(order->pages.begin(), order->pages.end(),
            [](const OrderedPage& a, const OrderedPage& b) { return a.view.first_time < b.view.first_time; });
  for (size_t i = 1; i < order->pages.size() && order->ordered; ++i) {
    order->ordered = order->pages[i - 1].view.last_time < order->pages[i].view.first_time;
  }
  return order;
}

bool Memtable::PagesInTimeOrder(SeriesId id, const SeriesState& st, size_t n, int64_t min_time, int64_t max_time,
                                bool keep, std::vector<OrderedPage>* out, OrderSource* source) const {
  std::shared_ptr<const PageOrder> order;
  {
    std::lock_guard<std::mutex> lock(order_mu_);
    auto it = page_orders_.find(id);
    if (it != page_orders_.end() && it->second->rows == st.rows && it->second->edits == edits_) order = it->second;
  }
  if (order == nullptr) {
    std::shared_ptr<PageOrder> computed = ComputePageOrder(st);
    order = computed;
    // Walking a long chain is a cache miss per page (and a scan of an unordered page's times,
    // and for a series out of order a sort): keep its order for the next query, its views
    // carrying their statistics' address (another miss a page saved).
    if (keep && order->pages.size() >= kCachedPageOrderPages) {
      for (OrderedPage& p : computed->pages) p.view = pages_.WithFrozenStats(p.view);
      computed->charged = &page_order_bytes_;
      const size_t bytes = order->pages.capacity() * sizeof(OrderedPage) + sizeof(PageOrder) + 64;
      std::lock_guard<std::mutex> lock(order_mu_);
      auto [it, fresh] = page_orders_.insert_or_assign(id, order);
      if (fresh) page_order_bytes_.fetch_add(bytes, std::memory_order_relaxed);
    }
  }
  if (!order->ordered) return false;
  // Only the pages whose spans meet [min_time, max_time] (in time order, spans disjoint: found by
  // binary search, so a read of the newest minutes does not walk a day of pages), and of those
  // only the first `n` rows in chain order: pages past them left out, the page holding the n-th cut.
  out->clear();
  const auto first = std::partition_point(order->pages.begin(), order->pages.end(),
                                          [&](const OrderedPage& p) { return p.view.last_time < min_time; });
  if (source != nullptr) {
    *source = OrderSource{};
    // Only a cached order outlives this read for others, and only a read of all its rows has
    // its pages at their indices (a prefix leaves some out).
    if (order->charged != nullptr && n >= order->rows) {
      *source = OrderSource{order, static_cast<size_t>(first - order->pages.begin())};
    }
  }
  for (auto it = first; it != order->pages.end() && it->view.first_time <= max_time; ++it) {
    const OrderedPage& p = *it;
    if (p.chain_row >= n) continue;
    out->push_back(p);
    out->back().rows = static_cast<uint32_t>(std::min<size_t>(p.view.count, n - p.chain_row));
  }
  return true;
}

void Memtable::AddPassingRows(const RowPages::PageView& page, uint32_t from, uint32_t to, const RowFilter& filter,
                              std::vector<RowPages::PageSlice>* slices, std::vector<int64_t>* times) const {
  const ValueType type = pages_.ColumnType(filter.column);
  const ScanPredicate& p = filter.predicate;
  const bool numeric = type == ValueType::kInt64 || type == ValueType::kUInt64 || type == ValueType::kFloat64;
  const int64_t* t = pages_.Times(page.ref);
  if (!numeric) {  // nothing to test: every row
    slices->push_back({page.ref, from, to, false});
    times->insert(times->end(), t + from, t + to);
    return;
  }
  // The page's statistics cover all its rows: none passing there, none here.
  if (!StatsMayPass(pages_.PageStats(page, filter.column, type), type, p)) return;
  thread_local ColumnBuffer values;
  ClearToAbsent(&values);
  values.type = type;
  const RowPages::PageSlice rows{page.ref, from, to, false};
  if (!pages_.GatherColumnSlices(filter.column, {&rows, 1}, {}, &values)) return;  // no value: NULL fails
  auto passes = [&](uint32_t k) {
    if (!values.validity.empty() && values.validity[k] == 0) return false;
    const uint64_t bits = values.bits[k];
    switch (type) {
      case ValueType::kInt64: return MayPass(static_cast<int64_t>(bits), p);
      case ValueType::kUInt64: return MayPass(bits, p);
      default: return MayPass(std::bit_cast<double>(bits), p);
    }
  };
  for (uint32_t k = 0; k < to - from;) {
    if (!passes(k)) {
      ++k;
      continue;
    }
    uint32_t end = k + 1;
    while (end < to - from && passes(end)) ++end;
    slices->push_back({page.ref, from + k, from + end, false});
    times->insert(times->end(), t + from + k, t + from + end);
    k = end;
  }
}

namespace {

// Rows [from, to) of a page's first `rows` times `t` (ascending) that lie in [min_time, max_time].
std::pair<uint32_t, uint32_t> RowsInRange(const int64_t* t, uint32_t rows, int64_t min_time, int64_t max_time) {
  const auto from = static_cast<uint32_t>(std::lower_bound(t, t + rows, min_time) - t);
  const auto to = static_cast<uint32_t>(std::upper_bound(t + from, t + rows, max_time) - t);
  return {from, to};
}

}  // namespace

// The runs of a read's pages that may stand as statistics, and their offers: a page whole, or
// the part of it the range cuts; those of one hour slice first as one merged block (concurrent
// writers leave a series several pages an hour, and each offer costs the consumer a look-up),
// kept with a cached page order, then one by one.
class Memtable::RunOffers {
 public:
  // Rows [from, to) of pages[page] (all of a page that lies in range when `whole`): offered
  // alone only when not `small` (fewer than kMinStatsPageRows rows, whose statistics would cost
  // more than they save), else only as part of its hour's merged block.
  struct Run {
    size_t page;
    uint32_t from, to;
    bool whole;
    bool small;
    int64_t first_time, last_time;
  };

  RunOffers(const RowPages& store, std::span<const OrderedPage> pages, int64_t min_time, int64_t max_time,
            const std::vector<int>& columns, const PageFilter& can_use, const PageOffer& offer,
            const OrderSource* source)
      : store_(store), pages_(pages), min_time_(min_time), max_time_(max_time), columns_(columns),
        can_use_(can_use), offer_(offer), source_(source), stats_(columns.size()), merged_(columns.size()) {}

  // The run of pages[i] (in range) that may stand as statistics; false when none may (an
  // unordered page cut by the range: its rows in range are not one run).
  bool RunOf(size_t i, Run* run) const {
    const OrderedPage& p = pages_[i];
    const RowPages::PageView& page = p.view;
    if (p.rows == page.count && page.first_time >= min_time_ && page.last_time <= max_time_) {
      *run = {i, 0, p.rows, true, p.rows < kMinStatsPageRows, page.first_time, page.last_time};
      return true;
    }
    if (page.unordered) return false;
    const int64_t* t = store_.Times(page.ref);
    const auto [from, to] = RowsInRange(t, p.rows, min_time_, max_time_);
    if (from == to) return false;
    *run = {i, from, to, false, to - from < kMinStatsPageRows, t[from], t[to - 1]};
    return true;
  }

  // Offers `group` (runs of one hour slice, in time order, at most 64): merged, then one by
  // one. Bit k of the result: group[k] was taken.
  uint64_t OfferGroup(const std::vector<Run>& group) {
    const uint64_t all = group.size() >= 64 ? ~uint64_t{0} : (uint64_t{1} << group.size()) - 1;
    uint32_t rows = 0;
    for (const Run& run : group) rows += run.to - run.from;
    if (group.size() > 1 && rows >= kMinStatsPageRows && can_use_(group.front().first_time, group.back().last_time)) {
      MergeGroup(group);
      if (offer_(group.front().first_time, group.back().last_time, rows, merged_)) return all;
    }
    uint64_t taken = 0;
    for (size_t k = 0; k < group.size(); ++k) {
      if (!group[k].small && OfferRun(group[k])) taken |= uint64_t{1} << k;
    }
    return taken;
  }

 private:
  void StatsOf(const Run& run, std::vector<ColumnStats>* into) const {
    const RowPages::PageView& page = pages_[run.page].view;
    for (size_t k = 0; k < columns_.size(); ++k) {
      const int c = columns_[k];
      const ValueType type = c >= 0 ? store_.ColumnType(static_cast<ColumnId>(c)) : ValueType::kNull;
      if (type == ValueType::kNull) {
        (*into)[k] = ColumnStats{};
      } else if (run.whole && !run.small) {
        // (A small page's statistics are made each time: kept, they would cost more than its rows.)
        (*into)[k] = store_.PageStats(page, static_cast<ColumnId>(c), type);
      } else {
        (*into)[k] = store_.RunStats(page, static_cast<ColumnId>(c), type, run.from, run.to);
      }
    }
  }

  bool OfferRun(const Run& run) {
    if (!can_use_(run.first_time, run.last_time)) return false;
    StatsOf(run, &stats_);
    return offer_(run.first_time, run.last_time, run.to - run.from, stats_);
  }

  // merged_ = the group's runs' statistics merged, from the cached order's entries where the
  // group is whole pages (made and kept there the first time).
  void MergeGroup(const std::vector<Run>& group) {
    bool whole = source_ != nullptr && source_->order != nullptr;
    for (const Run& run : group) whole &= run.whole;
    const PageOrder* order = whole ? source_->order.get() : nullptr;
    const size_t first = order != nullptr ? source_->base + group.front().page : 0;
    const size_t end = order != nullptr ? source_->base + group.back().page + 1 : 0;
    std::vector<uint8_t> found(columns_.size(), 0);
    if (order != nullptr) order->FindRun(first, end, columns_, &merged_, &found);
    if (std::find(found.begin(), found.end(), 0) == found.end()) return;
    for (size_t g = 0; g < group.size(); ++g) {
      StatsOf(group[g], &stats_);
      for (size_t k = 0; k < columns_.size(); ++k) {
        if (found[k]) continue;
        const int c = columns_[k];
        const ValueType type = c >= 0 ? store_.ColumnType(static_cast<ColumnId>(c)) : ValueType::kNull;
        if (g == 0) {
          merged_[k] = stats_[k];
        } else {
          MergeColumnStats(type, stats_[k], &merged_[k]);
        }
      }
    }
    if (order != nullptr) order->KeepRun(first, end, columns_, merged_, found);
  }

  const RowPages& store_;
  std::span<const OrderedPage> pages_;
  const int64_t min_time_, max_time_;
  const std::vector<int>& columns_;
  const PageFilter& can_use_;
  const PageOffer& offer_;
  const OrderSource* source_;
  std::vector<ColumnStats> stats_;   // one run's
  std::vector<ColumnStats> merged_;  // a group's
};

void Memtable::ReadOrderedPages(std::span<const OrderedPage> pages, int64_t min_time, int64_t max_time,
                                const std::vector<int>& columns, const PageFilter* can_use,
                                const PageOffer* offer, const RowFilter* filter, SortedSeries* out,
                                const OrderSource* source) const {
  thread_local std::vector<RowPages::PageSlice> slices;
  thread_local std::vector<uint16_t> picks;  // rows of unordered pages, by time
  thread_local std::vector<RunOffers::Run> group;
  slices.clear();
  picks.clear();
  auto in_range = [&](const RowPages::PageView& page) {
    return page.last_time >= min_time && page.first_time <= max_time;
  };
  auto read_rows = [&](const OrderedPage& p) { AddRowsInRange(p, min_time, max_time, filter, &slices, &picks, out); };
  if (offer == nullptr) {
    for (const OrderedPage& p : pages) {
      if (in_range(p.view)) read_rows(p);
    }
  } else {
    RunOffers offers(pages_, pages, min_time, max_time, columns, *can_use, *offer, source);
    // Pages ahead of `i` for each PrefetchStats step.
    auto prefetch = [&](size_t i) {
      constexpr size_t kAhead[2] = {8, 4};
      for (int step = 0; step < 2; ++step) {
        if (i + kAhead[step] < pages.size()) pages_.PrefetchStats(pages[i + kAhead[step]].view, step, columns);
      }
    };
    for (size_t i = 0; i < pages.size();) {
      prefetch(i);
      const OrderedPage& p = pages[i];
      RunOffers::Run run;
      if (!in_range(p.view)) {
        ++i;
        continue;
      }
      if (!offers.RunOf(i, &run)) {
        read_rows(p);
        ++i;
        continue;
      }
      // The runs of the same hour slice that follow.
      group.clear();
      group.push_back(run);
      size_t j = i + 1;
      for (RunOffers::Run next; j < pages.size() && group.size() < 64; ++j) {
        prefetch(j);
        if (!in_range(pages[j].view) || !offers.RunOf(j, &next) || SliceOf(next.first_time) != SliceOf(run.first_time)) {
          break;
        }
        group.push_back(next);
      }
      const uint64_t taken = offers.OfferGroup(group);
      for (size_t k = 0; k < group.size(); ++k) {
        if (!(taken >> k & 1)) read_rows(pages[group[k].page]);
      }
      i = j;
    }
  }
  if (slices.empty()) return;
  GatherEachColumn(pages_, columns, &out->columns, [&](ColumnId c, ColumnBuffer* dst) {
    return pages_.GatherColumnSlices(c, slices, picks, dst);
  });
}

void Memtable::AddRowsInRange(const OrderedPage& p, int64_t min_time, int64_t max_time, const RowFilter* filter,
                              std::vector<RowPages::PageSlice>* slices, std::vector<uint16_t>* picks,
                              SortedSeries* out) const {
  const RowPages::PageView& page = p.view;
  const int64_t* t = pages_.Times(page.ref);
  if (page.unordered) {
    // A late row joined this page: its rows in range, sorted by time (times are unique in a page).
    const auto begin = static_cast<uint32_t>(picks->size());
    for (uint32_t r = 0; r < p.rows; ++r) {
      if (t[r] >= min_time && t[r] <= max_time) picks->push_back(static_cast<uint16_t>(r));
    }
    std::sort(picks->begin() + begin, picks->end(), [t](uint16_t a, uint16_t b) { return t[a] < t[b]; });
    if (begin == picks->size()) return;
    slices->push_back({page.ref, begin, static_cast<uint32_t>(picks->size()), true});
    for (size_t k = begin; k < picks->size(); ++k) out->times.push_back(t[(*picks)[k]]);
    return;
  }
  // The rows in [min_time, max_time] (the first and last pages may straddle it).
  const auto [from, to] = RowsInRange(t, p.rows, min_time, max_time);
  if (from == to) return;
  if (filter != nullptr) {
    AddPassingRows(page, from, to, *filter, slices, &out->times);
    return;
  }
  slices->push_back({page.ref, from, to, false});
  out->times.insert(out->times.end(), t + from, t + to);
}

bool Memtable::ReadSortedOfferingPages(SeriesId id, int64_t min_time, int64_t max_time,
                                       const std::vector<int>& columns, size_t limit,
                                       const PageFilter& can_use, const PageOffer& offer,
                                       SortedSeries* out, const RowFilter* filter) const {
  const SeriesState* st = Find(id);
  if (st == nullptr) return false;
  thread_local std::vector<OrderedPage> pages;
  OrderSource source;
  if (!PagesInTimeOrder(id, *st, std::min<size_t>(st->rows, limit), min_time, max_time, true, &pages, &source)) {
    return false;
  }
  out->times.clear();
  for (ColumnBuffer& c : out->columns) ClearToAbsent(&c);
  ReadOrderedPages(pages, min_time, max_time, columns, &can_use, &offer, filter, out, &source);
  return true;
}

}  // namespace gnomon::storage
