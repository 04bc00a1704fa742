#include "src/bench/iot_simulator.h"

#include "src/base/check.h"

namespace gnomon::bench {
namespace {

constexpr double kBatchMissingChance = 0.01;
constexpr double kBatchOutOfOrderChance = 0.05;
constexpr double kBatchInsertPreviousChance = 0.5;
constexpr double kEntryMissingChance = 0.1;
constexpr double kEntryOutOfOrderChance = 0.3;
constexpr double kEntryInsertPreviousChance = 0.5;
constexpr double kZeroTagChance = 0.01;
constexpr double kZeroFieldChance = 0.1;

}  // namespace

void IotSimulator::NewBatchConfig(BatchConfig* bc) {
  // The draw order below is TSBS's; every short-circuit skips a draw.
  *bc = BatchConfig{};
  for (int i = 0; i < kBatchSize; ++i) bc->zero_field[i] = bc->zero_tag[i] = -1;
  if (rng_->Float64() < kBatchMissingChance) {
    bc->missing = true;
    return;
  }
  bc->out_of_order = rng_->Float64() < kBatchOutOfOrderChance;
  if (!deferred_batches_.empty()) {
    bc->insert_previous = rng_->Float64() < kBatchInsertPreviousChance;
  }
  size_t deferred_entries = deferred_entries_.size();
  for (int i = 0; i < kBatchSize; ++i) {
    if (deferred_entries > 0 && rng_->Float64() < kEntryInsertPreviousChance) {
      bc->insert_previous_entry[i] = true;
      --deferred_entries;
    }
    if (rng_->Float64() < kEntryMissingChance) {
      bc->missing_entry[i] = true;
      continue;
    }
    if (max_field_count_ > 0 && rng_->Float64() < kZeroFieldChance) {
      bc->zero_field[i] = static_cast<int>(rng_->Intn(max_field_count_));
    }
    if (tag_count_ > 0 && rng_->Float64() < kZeroTagChance) {
      bc->zero_tag[i] = static_cast<int>(rng_->Intn(tag_count_));
    }
    if (rng_->Float64() < kEntryOutOfOrderChance) bc->out_of_order_entry[i] = true;
  }
}

bool IotSimulator::Next(Point* p) {
  if (current_pos_ == current_.size() && !SimulateNextBatch()) return false;
  *p = current_[current_pos_++];
  return true;
}

std::vector<Point> IotSimulator::TakePending() {
  std::vector<Point> batch;
  if (!deferred_batches_.empty()) {
    batch = std::move(deferred_batches_.front());
    deferred_batches_.pop_front();
    return batch;
  }
  const size_t n = std::min<size_t>(deferred_entries_.size(), kBatchSize);
  batch.assign(deferred_entries_.begin(), deferred_entries_.begin() + n);
  deferred_entries_.erase(deferred_entries_.begin(), deferred_entries_.begin() + n);
  return batch;
}

bool IotSimulator::SimulateNextBatch() {
  for (;;) {
    current_pos_ = 0;
    current_.clear();
    if (base_->Finished()) {
      if (!Pending()) return false;
      current_ = TakePending();
      return true;
    }
    BatchConfig bc;
    NewBatchConfig(&bc);
    if (bc.insert_previous) {
      GNOMON_CHECK(!deferred_batches_.empty());
      current_ = std::move(deferred_batches_.front());
      deferred_batches_.pop_front();
      return true;
    }
    if (bc.missing) {
      DiscardBatch();
      continue;
    }
    if (bc.out_of_order) {
      std::vector<Point> batch = GenerateBatch(bc);
      if (!batch.empty()) deferred_batches_.push_back(std::move(batch));
      continue;
    }
    current_ = GenerateBatch(bc);
    if (!current_.empty()) return true;
  }
}

std::vector<Point> IotSimulator::GenerateBatch(const BatchConfig& bc) {
  std::vector<Point> batch;
  batch.reserve(kBatchSize);
  offset_ = 0;
  for (int i = 0; i < kBatchSize; ++i) {
    if (base_->Finished()) break;
    Point entry;
    if (!NextEntry(i, bc, &entry)) break;
    if (bc.zero_field[i] >= 0 && entry.num_fields() > 0) {
      entry.ClearField(bc.zero_field[i] % entry.num_fields());
    }
    if (bc.zero_tag[i] >= 0) {
      GNOMON_CHECK(bc.zero_tag[i] < entry.num_tags());
      entry.ClearTag(bc.zero_tag[i]);
    }
    batch.push_back(entry);
  }
  return batch;
}

bool IotSimulator::NextEntry(int slot, const BatchConfig& bc, Point* out) {
  // Like TSBS, this keeps pulling from the base stream even past its end when entries are dropped
  // or deferred; those extra entries carry timestamps beyond the requested end.
  for (;;) {
    const int k = slot + offset_;
    Point entry;
    if (At(bc.insert_previous_entry, k)) {
      GNOMON_CHECK(!deferred_entries_.empty());
      entry = deferred_entries_.front();
      deferred_entries_.pop_front();
    } else if (!base_->Next(&entry)) {
      return false;
    }
    if (At(bc.missing_entry, k)) {
      ++offset_;
      continue;
    }
    if (At(bc.out_of_order_entry, k)) {
      deferred_entries_.push_back(entry);
      ++offset_;
      continue;
    }
    *out = entry;
    return true;
  }
}

void IotSimulator::DiscardBatch() {
  for (int i = 0; i < kBatchSize; ++i) {
    Point p;
    if (!base_->Next(&p)) break;
  }
}

}  // namespace gnomon::bench
