// Destinations for generated data: standard output, and a gzip-compressing wrapper around any
// port::WritableFile (zlib, gzip container). Files on disk come from Env::NewWritableFile.
#pragma once

#include <memory>

#include "src/port/env.h"

namespace gnomon::bench {

// Writes to an already-open file descriptor (not closed by Close()). For stdout pass 1.
std::unique_ptr<port::WritableFile> NewFdWritableFile(int fd);

// Compresses everything appended into a gzip stream written to `dest`; Close() finishes the stream
// and closes `dest`. `level` is zlib's 1..9.
std::unique_ptr<port::WritableFile> NewGzipWritableFile(std::unique_ptr<port::WritableFile> dest, int level = 6);

}  // namespace gnomon::bench
