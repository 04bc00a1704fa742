// A ByteSource over the data generator's output, produced on a thread of its own as it is read:
// tests and benchmarks stream whole TSBS data sets (hundreds of MB) without writing a file, and
// get exactly the bytes `gnomon bench generate-data` writes.
#pragma once

#include <memory>

#include "src/bench/data_generator.h"
#include "src/bench/input_source.h"

namespace gnomon::bench {

// The generator starts at once and runs a few MiB ahead of the reader. Close() may come before
// the end: it stops the generator. Close() reports an invalid config or a generator error.
std::unique_ptr<ByteSource> NewGeneratedByteSource(DataGenConfig config);

}  // namespace gnomon::bench
