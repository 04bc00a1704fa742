// TSBS's IoT perturbation layer (spec 5.4) over the time-major base stream: entries are produced in
// batches of 10, and per batch / per entry random draws make data go missing, arrive out of order
// (deferred to a later batch), or lose one field or one tag.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "src/bench/go_rand.h"
#include "src/bench/point.h"
#include "src/bench/simulator.h"

namespace gnomon::bench {

class IotSimulator {
 public:
  // `base` and `rng` must outlive the IotSimulator.
  IotSimulator(GoRand* rng, BaseSimulator* base, int max_field_count, int tag_count)
      : rng_(rng), base_(base), max_field_count_(max_field_count), tag_count_(tag_count) {}

  // True once the base stream is exhausted and every deferred entry and batch has been emitted.
  bool Finished() const { return base_->Finished() && current_pos_ == current_.size() && !Pending(); }

  // Fills `*p` with the next entry; false when there is none left.
  bool Next(Point* p);

 private:
  static constexpr int kBatchSize = 10;

  // One batch's random decisions (TSBS's batchConfig). Entry maps are keyed by slot + offset and may
  // be read past slot 9, where they are false.
  struct BatchConfig {
    bool missing = false;
    bool out_of_order = false;
    bool insert_previous = false;
    int zero_field[kBatchSize];  // -1: none
    int zero_tag[kBatchSize];    // -1: none
    bool insert_previous_entry[kBatchSize] = {};
    bool missing_entry[kBatchSize] = {};
    bool out_of_order_entry[kBatchSize] = {};
  };
  static bool At(const bool (&flags)[kBatchSize], int i) { return i < kBatchSize && flags[i]; }

  bool Pending() const { return !deferred_batches_.empty() || !deferred_entries_.empty(); }
  void NewBatchConfig(BatchConfig* bc);
  bool SimulateNextBatch();
  std::vector<Point> TakePending();
  std::vector<Point> GenerateBatch(const BatchConfig& bc);
  // Returns false when the base stream produced an entry not to be written (ramp-up).
  bool NextEntry(int slot, const BatchConfig& bc, Point* out);
  void DiscardBatch();

  GoRand* rng_;
  BaseSimulator* base_;
  int max_field_count_;
  int tag_count_;

  std::vector<Point> current_;
  size_t current_pos_ = 0;
  std::deque<std::vector<Point>> deferred_batches_;
  std::deque<Point> deferred_entries_;
  int offset_ = 0;  // extra base entries consumed by the batch being generated
};

}  // namespace gnomon::bench
