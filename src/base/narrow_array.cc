#include "src/base/narrow_array.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace gnomon {

static_assert(std::endian::native == std::endian::little, "Store and Load put the low bytes first");

void NarrowArray::GrowTo(size_t n) {
  if (n <= size_) return;
  size_ = n;
  const size_t chunks = (n + kChunk - 1) / kChunk;
  if (chunks > chunks_.size()) chunks_.resize(chunks);
}

uint8_t NarrowArray::LowWidth(uint64_t v) {
  const auto s = static_cast<int64_t>(v);
  if (s == 0) return 0;
  if (s == static_cast<int8_t>(s)) return 1;
  if (s == static_cast<int16_t>(s)) return 2;
  if (s == static_cast<int32_t>(s)) return 4;
  return 8;
}

uint8_t NarrowArray::HighWidth(uint64_t v) {
  if (v == 0) return 0;
  if ((v << 8) == 0) return 1;
  if ((v << 16) == 0) return 2;
  if ((v << 32) == 0) return 4;
  return 8;
}

uint64_t NarrowArray::Load(const Chunk& c, size_t i) {
  const uint8_t* p = c.data.get() + i * c.width;
  if (c.mode == Mode::kLow) {
    switch (c.width) {
      case 0: return 0;
      case 1: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(*p)));
      case 2: { int16_t v; std::memcpy(&v, p, 2); return static_cast<uint64_t>(static_cast<int64_t>(v)); }
      case 4: { int32_t v; std::memcpy(&v, p, 4); return static_cast<uint64_t>(static_cast<int64_t>(v)); }
      default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
    }
  }
  switch (c.width) {
    case 0: return 0;
    case 1: return uint64_t{*p} << 56;
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return uint64_t{v} << 48; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return uint64_t{v} << 32; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

void NarrowArray::Widen(Chunk* c) {
  const bool low = c->low_width <= c->high_width;
  const uint8_t width = low ? c->low_width : c->high_width;
  const Mode mode = low ? Mode::kLow : Mode::kHigh;
  if (width == c->width && mode == c->mode) return;
  Chunk next;
  next.width = width;
  next.mode = mode;
  next.low_width = c->low_width;
  next.high_width = c->high_width;
  if (width > 0) next.data = std::make_unique<uint8_t[]>(kChunk * width);  // zeroed
  if (c->width > 0) {
    for (size_t i = 0; i < kChunk; ++i) Store(&next, i, Load(*c, i));
  }
  *c = std::move(next);
}

uint64_t NarrowArray::Get(size_t i) const { return Load(chunks_[i / kChunk], i % kChunk); }

void NarrowArray::SetWider(Chunk* c, size_t i, uint64_t value) {
  c->low_width = std::max(c->low_width, LowWidth(value));
  c->high_width = std::max(c->high_width, HighWidth(value));
  Widen(c);
  Store(c, i, value);
}

size_t NarrowArray::MemoryUsage() const {
  size_t bytes = chunks_.capacity() * sizeof(Chunk);
  for (const Chunk& c : chunks_) bytes += kChunk * c.width;
  return bytes;
}

}  // namespace gnomon
