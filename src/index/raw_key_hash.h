// RawKeyHash: the fingerprint of a series key as a client spelt it (index::RawKeyCache), in a
// header of its own so that write batches can carry one without the cache's locks and tables.
#pragma once

#include <cstdint>

namespace gnomon::index {

struct RawKeyHash {
  uint64_t low;
  uint32_t high;  // 32 more bits of the 128-bit hash
  friend bool operator==(const RawKeyHash&, const RawKeyHash&) = default;
};

}  // namespace gnomon::index
