// Where the loader's line protocol comes from: a plain file, standard input ("-"), a .gz file
// (zlib) or a .xz file (decompressed by a spawned `xz -dc`, as TSBS users pipe it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::bench {

// Reads a byte stream front to back. Not thread-safe.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes; 0 means end of stream.
  virtual Result<size_t> Read(char* buf, size_t n) = 0;
  // Progress through the underlying file in its own bytes (compressed bytes for .gz; 0 if unknown),
  // against SizeOnDisk() (0 if unknown: stdin, pipes).
  virtual uint64_t PositionOnDisk() const = 0;
  virtual uint64_t SizeOnDisk() const = 0;
  // Releases the source; for .xz reports a failed decompressor. Called once, after the last Read.
  virtual Status Close() = 0;
  // The whole stream already in memory, when the source can offer it (a plain file is mapped),
  // so that readers can take views instead of copies; empty otherwise (then use Read). Valid
  // until Close(). Reading it does not move Read's position.
  virtual std::string_view Contents() const { return {}; }
  // Contents() before `end` is no longer needed soon: the source may drop it from memory and from
  // the page cache (reading it again still works, from the disk). A load of a file larger than
  // memory otherwise fills the page cache with it and evicts what the server being measured needs.
  virtual void Release(uint64_t end) { (void)end; }
};

// Picks the reader by name: "-" is stdin, "*.gz" gzip, "*.xz" xz, anything else plain.
Result<std::unique_ptr<ByteSource>> OpenByteSource(const std::string& path);

// A source over bytes in memory (tests, small inputs).
std::unique_ptr<ByteSource> NewStringByteSource(std::string data);

}  // namespace gnomon::bench
