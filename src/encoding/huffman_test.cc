#include "src/encoding/huffman.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <queue>
#include <random>
#include <vector>

namespace gnomon::encoding {
namespace {

std::string RoundTrip(const std::string& in, size_t* stored_size = nullptr) {
  std::string stored;
  HuffmanCompress(in, &stored);
  if (stored_size) *stored_size = stored.size();
  std::string out(in.size(), '\0');
  Status s = HuffmanDecompress(stored, in.size(), out.data());
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

// The code lengths a min-heap of (weight, node index) gives (leaves in symbol order, internal
// nodes after them): what the encoder computed before its two-queue construction, whose stored
// bytes must not differ.
std::array<uint8_t, 256> HeapLengths(const std::array<uint64_t, 256>& counts) {
  using Node = std::pair<uint64_t, int>;
  std::priority_queue<Node, std::vector<Node>, std::greater<Node>> heap;
  std::vector<int> parent, leaf_of(256, -1);
  for (int s = 0; s < 256; ++s) {
    if (counts[s] == 0) continue;
    leaf_of[s] = static_cast<int>(parent.size());
    heap.push({counts[s], static_cast<int>(parent.size())});
    parent.push_back(-1);
  }
  std::array<uint8_t, 256> lengths{};
  if (parent.size() == 1) {
    for (int s = 0; s < 256; ++s) lengths[s] = counts[s] != 0;
    return lengths;
  }
  while (heap.size() > 1) {
    Node a = heap.top();
    heap.pop();
    Node b = heap.top();
    heap.pop();
    const int p = static_cast<int>(parent.size());
    parent.push_back(-1);
    parent[a.second] = p;
    parent[b.second] = p;
    heap.push({a.first + b.first, p});
  }
  for (int s = 0; s < 256; ++s) {
    if (leaf_of[s] < 0) continue;
    int depth = 0;
    for (int n = leaf_of[s]; parent[n] >= 0; n = parent[n]) ++depth;
    lengths[s] = static_cast<uint8_t>(depth);
  }
  return lengths;
}

TEST(HuffmanTest, LengthsAreTheHeapConstructionsExactly) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::array<uint64_t, 256> counts{};
    const int symbols = 1 + static_cast<int>(rng() % 256);
    const uint64_t spread = round % 3 == 0 ? 4 : (round % 3 == 1 ? 100 : 1000000);  // many ties, some, few
    for (int i = 0; i < symbols; ++i) counts[rng() % 256] = 1 + rng() % spread;
    const std::array<uint8_t, 256> expected = HeapLengths(counts);
    if (*std::max_element(expected.begin(), expected.end()) > kHuffmanMaxCodeLength) continue;
    ASSERT_EQ(BuildHuffmanCode(counts).lengths, expected) << "round " << round;
  }
}

TEST(HuffmanTest, RoundTripsShapes) {
  std::mt19937_64 rng(1);
  std::string uniform(10000, '\0'), one_symbol(777, 'z'), all_symbols;
  for (auto& c : uniform) c = static_cast<char>(rng());
  for (int s = 0; s < 256; ++s) all_symbols += static_cast<char>(s);
  for (const std::string& in : {uniform, one_symbol, all_symbols, std::string("a"), std::string("ab")}) {
    EXPECT_EQ(RoundTrip(in), in);
  }
}

TEST(HuffmanTest, SkewedDistributionIsNearEntropyAndLengthLimited) {
  // Fibonacci-like counts would give codes far longer than 12 bits without length limiting.
  std::string in;
  uint64_t a = 1, b = 1;
  for (int s = 0; s < 24; ++s) {
    in.append(a, static_cast<char>('A' + s));
    const uint64_t c = a + b;
    a = b;
    b = c;
  }
  EXPECT_EQ(RoundTrip(in), in);

  // Zigzag deltas of a +-2 walk: 5 symbols, 2.32 bits of entropy.
  std::mt19937_64 rng(2);
  std::string deltas(8192, '\0');
  for (auto& c : deltas) c = static_cast<char>(rng() % 5);
  size_t size = 0;
  EXPECT_EQ(RoundTrip(deltas, &size), deltas);
  EXPECT_LT(size * 8.0 / deltas.size(), 2.45);
}

TEST(HuffmanTest, TruncationAndBadTablesAreCorruption) {
  std::mt19937_64 rng(3);
  std::string in(500, '\0');
  for (auto& c : in) c = static_cast<char>(rng() % 9);
  std::string stored;
  HuffmanCompress(in, &stored);
  std::string out(in.size(), '\0');
  for (size_t cut = 0; cut < stored.size(); ++cut) {
    EXPECT_TRUE(HuffmanDecompress(stored.substr(0, cut), in.size(), out.data()).IsCorruption()) << cut;
  }
  EXPECT_TRUE(HuffmanDecompress(stored + "x", in.size(), out.data()).IsCorruption());
  // Two symbols of length 1 plus one more: oversubscribed.
  const std::string oversubscribed("\x02\x00\x01\x01\x01\x02\x01\x00", 8);
  EXPECT_TRUE(HuffmanDecompress(oversubscribed, 3, out.data()).IsCorruption());
  const std::string unordered("\x01\x05\x01\x04\x01\x00", 6);
  EXPECT_TRUE(HuffmanDecompress(unordered, 3, out.data()).IsCorruption());
  const std::string too_long("\x00\x05\x0d\x00", 4);
  EXPECT_TRUE(HuffmanDecompress(too_long, 1, out.data()).IsCorruption());
}

TEST(HuffmanTest, SizeLowerBoundNeverExceedsTheStoredSize) {
  // Shapes where the bound is tight (one symbol, two equal ones, uniform bytes) and loose
  // (skewed, length-limited), at sizes around the four streams' split.
  std::mt19937_64 rng(3);
  for (size_t n : {1, 2, 3, 4, 5, 7, 64, 255, 1000, 4096, 20000}) {
    for (int shape = 0; shape < 5; ++shape) {
      std::string in(n, '\0');
      std::geometric_distribution<int> skewed(0.3);
      for (size_t i = 0; i < n; ++i) {
        switch (shape) {
          case 0: in[i] = 'a'; break;
          case 1: in[i] = static_cast<char>(i % 2); break;
          case 2: in[i] = static_cast<char>(rng()); break;
          case 3: in[i] = static_cast<char>(std::min(skewed(rng), 255)); break;
          default: in[i] = static_cast<char>(i % 256); break;
        }
      }
      std::string stored;
      HuffmanCompress(in, &stored);
      EXPECT_LE(HuffmanCompressedSizeLowerBound(in), stored.size()) << n << " " << shape;
    }
  }
}

RC_GTEST_PROP(HuffmanProperty, SizeLowerBoundHolds, (const std::string& in)) {
  RC_PRE(!in.empty());
  std::string stored;
  HuffmanCompress(in, &stored);
  RC_ASSERT(HuffmanCompressedSizeLowerBound(in) <= stored.size());
}

RC_GTEST_PROP(HuffmanProperty, RoundTrips, (const std::string& in)) {
  RC_PRE(!in.empty());
  std::string stored;
  HuffmanCompress(in, &stored);
  std::string out(in.size(), '\0');
  RC_ASSERT(HuffmanDecompress(stored, in.size(), out.data()).ok());
  RC_ASSERT(out == in);
}

}  // namespace
}  // namespace gnomon::encoding
