// Point-in-time row counts for readers of a memtable that keeps taking writes.
//
// A series' rows are only ever appended, so the count a series had when a reader's view opened
// names exactly the rows that view sees. Copying every series' count at each view costs 40 MB at
// 10 M series; instead each series carries the stamp of the write sequence that last changed it,
// and a writer about to change a count some open view may still need keeps the old count in a
// per-series chain. A view reads a series' count only when it reads the series.
//
// Not thread-safe on its own: the owner serialises writers against views opening and reading
// (its lock: exclusive for BeforeWrite, shared at least for OpenView and RowsAt). Views may close
// on any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gnomon::storage {

class RowCountVersions {
 public:
  // An open view; closes when destroyed. Must not outlive the RowCountVersions that opened it.
  class View {
   public:
    View() = default;
    View(View&& other) noexcept : owner_(other.owner_), seq_(other.seq_) { other.owner_ = nullptr; }
    View& operator=(View&& other) noexcept;
    View(const View&) = delete;
    View& operator=(const View&) = delete;
    ~View() { Close(); }
    bool open() const { return owner_ != nullptr; }

   private:
    friend class RowCountVersions;
    View(const RowCountVersions* owner, uint32_t seq) : owner_(owner), seq_(seq) {}
    void Close();
    const RowCountVersions* owner_ = nullptr;
    uint32_t seq_ = 0;
  };

  RowCountVersions() = default;
  RowCountVersions(const RowCountVersions&) = delete;
  RowCountVersions& operator=(const RowCountVersions&) = delete;

  // Opens a view of the counts as they are now. REQUIRES: no concurrent BeforeWrite.
  View OpenView() const;

  // Called before the count of series `slot` changes from `rows`; `*stamp` is the series' stamp
  // (0 for a series never written) and is updated. REQUIRES: no concurrent view opening or read.
  void BeforeWrite(uint32_t slot, uint32_t rows, uint32_t* stamp);

  // The count series `slot` (now `rows`, stamped `stamp`) had when `view` opened; 0 when it had
  // none. REQUIRES: no concurrent BeforeWrite.
  uint32_t RowsAt(uint32_t slot, uint32_t rows, uint32_t stamp, const View& view) const;

  // Heap bytes held by kept counts.
  size_t bytes() const { return versions_.capacity() * sizeof(Version) + heads_.capacity() * sizeof(uint32_t); }
  size_t kept_versions() const { return versions_.size(); }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Version {
    uint32_t rows;
    uint32_t stamp;
    uint32_t prev;  // the series' next older kept count (kNone: none)
  };
  void DropVersions();

  // Stamp of the writes now being made; moves on after a view opens, so a view opened between two
  // writes tells them apart.
  uint32_t write_seq_ = 1;
  // write_seq_ when the newest view opened; 0 when no view has opened since the kept counts were
  // last dropped. Counts stamped at or before it may be needed by a view.
  mutable std::atomic<uint32_t> view_seq_{0};
  mutable std::atomic<uint32_t> live_views_{0};
  std::vector<Version> versions_;
  std::vector<uint32_t> heads_;  // slot -> newest kept count (kNone); sized on first need
};

}  // namespace gnomon::storage
