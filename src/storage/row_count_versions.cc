#include "src/storage/row_count_versions.h"

namespace gnomon::storage {

RowCountVersions::View& RowCountVersions::View::operator=(View&& other) noexcept {
  if (this != &other) {
    Close();
    owner_ = other.owner_;
    seq_ = other.seq_;
    other.owner_ = nullptr;
  }
  return *this;
}

void RowCountVersions::View::Close() {
  if (owner_ == nullptr) return;
  owner_->live_views_.fetch_sub(1, std::memory_order_release);
  owner_ = nullptr;
}

RowCountVersions::View RowCountVersions::OpenView() const {
  live_views_.fetch_add(1, std::memory_order_relaxed);
  // Views opening together (under a shared lock) all store the same value.
  view_seq_.store(write_seq_, std::memory_order_relaxed);
  return View(this, write_seq_);
}

void RowCountVersions::DropVersions() {
  std::vector<Version>().swap(versions_);
  std::vector<uint32_t>().swap(heads_);
  view_seq_.store(0, std::memory_order_relaxed);
}

void RowCountVersions::BeforeWrite(uint32_t slot, uint32_t rows, uint32_t* stamp) {
  const uint32_t view_seq = view_seq_.load(std::memory_order_relaxed);
  if (view_seq == write_seq_) ++write_seq_;  // a view opened since the last write
  if (view_seq != 0 && live_views_.load(std::memory_order_acquire) == 0) {
    // No view is open and every later one sees the counts as they are: nothing kept is needed.
    DropVersions();
  } else if (rows > 0 && *stamp <= view_seq) {
    if (slot >= heads_.size()) heads_.resize(slot + 1, kNone);
    versions_.push_back(Version{rows, *stamp, heads_[slot]});
    heads_[slot] = static_cast<uint32_t>(versions_.size() - 1);
  }
  *stamp = write_seq_;
}

uint32_t RowCountVersions::RowsAt(uint32_t slot, uint32_t rows, uint32_t stamp, const View& view) const {
  if (stamp <= view.seq_) return rows;
  if (slot >= heads_.size()) return 0;
  for (uint32_t v = heads_[slot]; v != kNone; v = versions_[v].prev) {
    if (versions_[v].stamp <= view.seq_) return versions_[v].rows;
  }
  return 0;  // the series had no rows then
}

}  // namespace gnomon::storage
