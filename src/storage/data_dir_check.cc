#include "src/storage/data_dir_check.h"

#include <algorithm>

#include "src/index/series_registry.h"
#include "src/port/read_only_env.h"
#include "src/storage/data_dir_layout.h"
#include "src/storage/manifest.h"
#include "src/storage/segment_reader.h"
#include "src/wal/replay.h"

namespace gnomon::storage {
namespace {

// One listed table: its registry, its listed segments, and segment files nobody lists.
Status CheckTable(port::Env* env, const std::string& dir, const ManifestTable& table, DataDirCheck* out) {
  ++out->tables;
  uint32_t known_series = 0;  // as Table::Open tells the registry
  for (const ManifestSegment& seg : table.segments) {
    const std::string path = port::JoinPath(dir, SegmentFileName(seg.file_number));
    ++out->segments;
    out->segment_bytes += seg.bytes;
    auto reader = SegmentReader::Open(env, path);
    if (!reader.ok()) {
      out->problems.push_back({path, reader.status().ToString()});
      out->damaged_segments.push_back(path);
      continue;
    }
    const auto& series = (*reader)->index().series;  // ascending id
    if (!series.empty()) known_series = std::max(known_series, series.back().id + 1);
  }
  port::ReadOnlyEnv read_only(env);
  index::RegistryOptions registry_options;
  registry_options.known_series = known_series;
  auto registry = index::SeriesRegistry::Open(&read_only, port::JoinPath(dir, "series"), registry_options);
  if (registry.ok()) {
    out->series += (*registry)->size();
  } else {
    out->problems.push_back({port::JoinPath(dir, "series"), registry.status().ToString()});
  }
  for (const std::string& change : read_only.Changes()) {
    out->notes.push_back("start-up would " + change + " (table " + table.name + "'s series registry)");
  }
  if (!env->FileExists(dir)) return Status::OK();
  GNOMON_ASSIGN_OR_RETURN(std::vector<std::string> children, env->GetChildren(dir));
  for (const std::string& child : children) {
    uint64_t number = 0;
    if (!SegmentFileNumber(child, &number)) continue;
    const bool listed = std::any_of(table.segments.begin(), table.segments.end(),
                                    [&](const ManifestSegment& s) { return s.file_number == number; });
    if (!listed) out->notes.push_back("start-up would remove unlisted segment " + port::JoinPath(dir, child));
  }
  return Status::OK();
}

// The live WAL, read without repairing it.
Status CheckWal(port::Env* env, const std::string& data_dir, uint64_t first_live, DataDirCheck* out) {
  wal::ReplayOptions options;
  options.min_segment = first_live;
  options.repair = false;
  options.on_corruption = wal::CorruptionPolicy::kFail;
  auto report = wal::ReplayWal(env, port::JoinPath(data_dir, kWalDirName), options,
                               [&](std::string_view record, uint64_t) {
                                 ++out->wal_records;
                                 out->wal_bytes += record.size();
                                 return Status::OK();
                               });
  if (!report.ok()) {
    if (!report.status().IsCorruption()) return report.status();
    out->problems.push_back({port::JoinPath(data_dir, kWalDirName), report.status().ToString() +
                                                                        " (gnomon repair --cut-wal drops the records after it)"});
    out->wal_damaged = true;
    return Status::OK();
  }
  if (!report->damaged) return Status::OK();
  if (report->valid_data_after_damage) {
    // Bytes were changed, not torn off: records after the damage were written, maybe acknowledged.
    out->problems.push_back({report->truncated_file, report->detail});
  } else {
    out->notes.push_back("start-up would cut a torn WAL tail: " + report->detail);
  }
  return Status::OK();
}

}  // namespace

Result<DataDirCheck> CheckDataDir(port::Env* env, const std::string& data_dir) {
  DataDirCheck out;
  if (!env->FileExists(data_dir)) return Status::NotFound("no data directory at " + data_dir);
  const std::string manifest_path = port::JoinPath(data_dir, kManifestFileName);
  auto manifest = LoadManifest(env, data_dir);
  if (!manifest.ok()) {
    // Without the manifest nothing else can be located.
    out.problems.push_back({manifest_path, manifest.status().ToString()});
    return out;
  }
  if (env->FileExists(manifest_path + ".tmp")) {
    out.notes.push_back("leftover " + manifest_path + ".tmp of an interrupted manifest replacement (ignored)");
  }
  for (const ManifestDatabase& db : manifest->databases) {
    ++out.databases;
    for (const ManifestTable& table : db.tables) {
      GNOMON_RETURN_IF_ERROR(
          CheckTable(env, port::JoinPath(DatabaseDir(data_dir, db.dir_name), table.dir_name), table, &out));
    }
  }
  GNOMON_RETURN_IF_ERROR(CheckWal(env, data_dir, manifest->wal_first_live_segment, &out));
  return out;
}

namespace {

// Moves a damaged segment to DIR/quarantine/<its path below DIR>, durably.
Status Quarantine(port::Env* env, const std::string& data_dir, const std::string& path, std::string* moved_to) {
  std::string relative = path.substr(std::min(path.size(), data_dir.size()));
  while (!relative.empty() && relative.front() == '/') relative.erase(0, 1);
  const std::string target = port::JoinPath(port::JoinPath(data_dir, kQuarantineDirName), relative);
  GNOMON_RETURN_IF_ERROR(env->CreateDirs(port::DirName(target)));
  GNOMON_RETURN_IF_ERROR(env->RenameFile(path, target));
  GNOMON_RETURN_IF_ERROR(env->SyncDir(port::DirName(target)));
  GNOMON_RETURN_IF_ERROR(env->SyncDir(port::DirName(path)));
  *moved_to = target;
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> RepairDataDir(port::Env* env, const std::string& data_dir,
                                               const RepairOptions& options) {
  GNOMON_ASSIGN_OR_RETURN(DataDirCheck check, CheckDataDir(env, data_dir));
  std::vector<std::string> done;
  if (options.quarantine_segments && !check.damaged_segments.empty()) {
    GNOMON_ASSIGN_OR_RETURN(Manifest manifest, LoadManifest(env, data_dir));
    // Files first, then the manifest: a crash in between leaves a listed, missing file, which
    // start-up fences off like any damaged one and a second repair finishes.
    for (const std::string& path : check.damaged_segments) {
      std::string moved_to;
      if (env->FileExists(path)) {
        GNOMON_RETURN_IF_ERROR(Quarantine(env, data_dir, path, &moved_to));
        done.push_back("moved damaged segment " + path + " to " + moved_to);
      }
    }
    for (ManifestDatabase& db : manifest.databases) {
      for (ManifestTable& table : db.tables) {
        const std::string dir = port::JoinPath(DatabaseDir(data_dir, db.dir_name), table.dir_name);
        std::erase_if(table.segments, [&](const ManifestSegment& s) {
          const std::string path = port::JoinPath(dir, SegmentFileName(s.file_number));
          return std::find(check.damaged_segments.begin(), check.damaged_segments.end(), path) !=
                 check.damaged_segments.end();
        });
      }
    }
    GNOMON_RETURN_IF_ERROR(SaveManifest(env, data_dir, manifest));
    done.push_back("removed " + std::to_string(check.damaged_segments.size()) + " damaged segments from the manifest");
  }
  if (options.cut_wal && check.wal_damaged) {
    GNOMON_ASSIGN_OR_RETURN(Manifest manifest, LoadManifest(env, data_dir));
    wal::ReplayOptions replay;
    replay.min_segment = manifest.wal_first_live_segment;
    replay.repair = true;
    replay.on_corruption = wal::CorruptionPolicy::kTruncate;
    GNOMON_ASSIGN_OR_RETURN(wal::ReplayReport report,
                            wal::ReplayWal(env, port::JoinPath(data_dir, kWalDirName), replay,
                                           [](std::string_view, uint64_t) { return Status::OK(); }));
    done.push_back("cut the WAL: " + report.detail);
  }
  return done;
}

}  // namespace gnomon::storage
