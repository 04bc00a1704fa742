// Manifest: the durable description of the engine's state — databases, table schemas, the live
// segment files and how much of the WAL they cover. Replaced atomically (write temp, fsync,
// rename, fsync dir) on every change. Format: docs/format/manifest.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/base/value_type.h"
#include "src/port/env.h"

namespace gnomon::storage {

struct ManifestSegment {
  uint64_t file_number = 0;
  // Precedence for duplicate (series, time) rows: a higher sequence wins. A flush gets a fresh
  // sequence; a compaction output inherits the highest sequence of its inputs.
  uint64_t sequence = 0;
  int64_t partition_start = 0;
  int64_t min_time = 0;
  int64_t max_time = 0;
  uint64_t rows = 0;
  uint64_t bytes = 0;
};

struct ManifestTable {
  std::string name;
  std::string dir_name;  // directory under the database's directory
  std::vector<std::pair<std::string, ValueType>> fields;  // in column id order
  std::vector<std::string> tag_keys;
  std::vector<ManifestSegment> segments;
};

struct ManifestDatabase {
  std::string name;
  std::string dir_name;
  int64_t retention_ns = 0;
  std::vector<ManifestTable> tables;
};

struct Manifest {
  uint64_t next_file_number = 1;
  uint64_t next_sequence = 1;
  // WAL segments numbered below this hold nothing that is not already in segment files.
  uint64_t wal_first_live_segment = 0;
  std::vector<ManifestDatabase> databases;
};

constexpr char kManifestFileName[] = "MANIFEST";

std::string EncodeManifest(const Manifest& m);
Status DecodeManifest(std::string_view bytes, Manifest* m);
// Missing file: an empty manifest (a new data directory).
Result<Manifest> LoadManifest(port::Env* env, const std::string& data_dir);
Status SaveManifest(port::Env* env, const std::string& data_dir, const Manifest& m);

// A file-system-safe, reversible name for a database or table ("cpu" stays "cpu", "a/b" -> "a%2Fb").
std::string EscapeFileName(std::string_view name);

}  // namespace gnomon::storage
