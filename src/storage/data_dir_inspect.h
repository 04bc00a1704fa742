// Human-readable descriptions of a data directory's files, for people debugging one
// (gnomon inspect). Each reads through the same decoders the engine uses, changes nothing, and
// returns text; a damaged file gives the decoder's error.
#pragma once

#include <string>

#include "src/base/result.h"
#include "src/port/env.h"

namespace gnomon::storage {

// The manifest: databases, tables (fields, tag keys) and their segments.
Result<std::string> DescribeManifest(port::Env* env, const std::string& data_dir);
// One segment file: its index (series, groups, packs) and per column the blocks' codecs and
// bytes and the column's statistics.
Result<std::string> DescribeSegment(port::Env* env, const std::string& path);
// The live WAL: per segment file its records by type, bytes and LSNs.
Result<std::string> DescribeWal(port::Env* env, const std::string& data_dir);
// A series registry directory (TABLE_DIR/series): series count, tag keys, the first `limit` series.
Result<std::string> DescribeRegistry(port::Env* env, const std::string& dir, size_t limit);

}  // namespace gnomon::storage
