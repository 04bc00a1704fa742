#include "src/wal/replay.h"

#include "src/wal/record_reader.h"
#include "src/wal/segment_file.h"
#include "src/wal/wal_format.h"

namespace gnomon::wal {
namespace {

using RecordFn = std::function<Status(std::string_view, uint64_t)>;

// Where the log's valid data ends, and why.
struct Cut {
  size_t index = 0;            // segment (in the replayed list) where valid data ends
  uint64_t valid_end = 0;      // ... and the offset in it
  uint64_t damage_offset = 0;  // first bad bytes in that segment
  std::string reason;
  bool at_eof = false;       // bytes cut off at the end of the file: a torn write
  bool valid_after = false;  // well-formed data follows the damage in the same file
  size_t first_later = 0;    // first segment after the cut
};

// Reads segment `seg`, passing its records to fn. Returns true and fills *cut on damage.
Result<bool> ReadSegment(port::Env* env, const SegmentFile& seg, const RecordFn& fn,
                         ReplayReport* report, Cut* cut) {
  GNOMON_ASSIGN_OR_RETURN(auto file, env->NewSequentialFile(seg.path));
  RecordReader reader(file.get());
  uint64_t prev_end = 0;
  bool first = true;
  auto damaged_at = [&](uint64_t offset, std::string reason, bool valid_after) {
    cut->valid_end = prev_end;
    cut->damage_offset = offset;
    cut->reason = std::move(reason);
    cut->at_eof = false;
    cut->valid_after = valid_after;
    return true;
  };
  while (true) {
    std::string_view record;
    bool is_header = false;
    GNOMON_ASSIGN_OR_RETURN(RecordReader::Outcome outcome, reader.Next(&record, &is_header));
    if (outcome == RecordReader::Outcome::kEof) return false;
    if (outcome == RecordReader::Outcome::kDamaged) {
      cut->valid_end = reader.valid_end();
      cut->damage_offset = reader.damage().offset;
      cut->reason = reader.damage().reason;
      cut->at_eof = reader.damage().at_eof;
      GNOMON_ASSIGN_OR_RETURN(cut->valid_after, reader.ScanPastDamage());
      return true;
    }
    if (first) {
      first = false;
      if (!is_header) return damaged_at(0, "segment header missing", true);
      auto header = DecodeSegmentHeader(record);
      if (!header.ok()) {
        // A newer format must not be "repaired" away.
        if (header.status().code() == Status::Code::kUnsupported) {
          return header.status().WithContext(seg.path);
        }
        return damaged_at(0, header.status().message(), true);
      }
      if (header->number != seg.number) {
        return damaged_at(0, "segment header names segment " + std::to_string(header->number),
                          true);
      }
      prev_end = reader.valid_end();
      continue;
    }
    if (is_header) return damaged_at(prev_end, "second segment header", true);
    uint64_t lsn = MakeLsn(seg.number, reader.valid_end());
    GNOMON_RETURN_IF_ERROR(fn(record, lsn));
    ++report->records;
    report->bytes += record.size();
    report->last_lsn = lsn;
    prev_end = reader.valid_end();
  }
}

// Whether `seg` holds at least one readable record.
Result<bool> HasRecords(port::Env* env, const SegmentFile& seg) {
  GNOMON_ASSIGN_OR_RETURN(auto file, env->NewSequentialFile(seg.path));
  RecordReader reader(file.get());
  while (true) {
    std::string_view record;
    bool is_header = false;
    GNOMON_ASSIGN_OR_RETURN(RecordReader::Outcome outcome, reader.Next(&record, &is_header));
    if (outcome != RecordReader::Outcome::kRecord) return false;
    if (!is_header) return true;
  }
}

// Makes a truncation durable: fdatasync persists the new size.
Status TruncateDurably(port::Env* env, const std::string& path, uint64_t size) {
  GNOMON_RETURN_IF_ERROR(env->TruncateFile(path, size));
  GNOMON_ASSIGN_OR_RETURN(auto file, env->NewAppendableFile(path));
  GNOMON_RETURN_IF_ERROR(file->Sync());
  return file->Close();
}

Result<ReplayReport> HandleCut(port::Env* env, const std::string& dir,
                               const std::vector<SegmentFile>& segs, const Cut& cut,
                               const ReplayOptions& options, ReplayReport report) {
  const SegmentFile& seg = segs[cut.index];
  size_t later_with_records = 0;
  uint64_t dropped = seg.size - std::min(seg.size, cut.valid_end);
  for (size_t j = cut.first_later; j < segs.size(); ++j) {
    GNOMON_ASSIGN_OR_RETURN(bool has, HasRecords(env, segs[j]));
    if (has) ++later_with_records;
    dropped += segs[j].size;
  }

  report.damaged = true;
  report.truncated_file = seg.path;
  report.truncated_offset = cut.valid_end;
  report.damage_offset = cut.damage_offset;
  report.dropped_bytes = dropped;
  report.valid_data_after_damage = cut.valid_after || later_with_records > 0;
  std::string where = seg.path + " at offset " + std::to_string(cut.damage_offset) + ": " +
                      cut.reason + "; valid data ends at offset " + std::to_string(cut.valid_end);
  if (later_with_records > 0) {
    std::string message = "WAL corruption in " + where + "; " + std::to_string(later_with_records) +
                          " later segment(s) hold records that cannot be replayed";
    if (options.on_corruption == CorruptionPolicy::kFail) return Status::Corruption(message);
    report.corruption = Status::Corruption(message);
  }
  std::string kind = later_with_records > 0           ? "corruption in the middle of the log"
                     : report.valid_data_after_damage ? "corruption at the end of the log"
                     : cut.at_eof                     ? "torn write at the end of the log"
                                                      : "damaged end of the log";
  report.detail = where + " (" + kind + "); " + std::to_string(dropped) + " byte(s) after it " +
                  (options.repair ? "cut" : "left in place (read-only)");

  if (!options.repair) return report;
  if (cut.valid_end < seg.size)
    GNOMON_RETURN_IF_ERROR(TruncateDurably(env, seg.path, cut.valid_end));
  for (size_t j = cut.first_later; j < segs.size(); ++j) {
    GNOMON_RETURN_IF_ERROR(env->RemoveFile(segs[j].path));
    report.removed_files.push_back(segs[j].path);
  }
  if (cut.first_later < segs.size()) GNOMON_RETURN_IF_ERROR(env->SyncDir(dir));
  report.truncated = true;
  return report;
}

}  // namespace

Result<ReplayReport> ReplayWal(port::Env* env, const std::string& dir, const ReplayOptions& options,
                               const RecordFn& fn) {
  GNOMON_ASSIGN_OR_RETURN(auto all, ListSegments(env, dir));
  std::vector<SegmentFile> segs;
  for (auto& seg : all) {
    if (seg.number >= options.min_segment) segs.push_back(std::move(seg));
  }
  ReplayReport report;
  for (size_t i = 0; i < segs.size(); ++i) {
    Cut cut;
    if (i > 0 && segs[i].number != segs[i - 1].number + 1) {
      // A hole: treat it as damage at the end of the segment before it.
      cut.index = i - 1;
      cut.valid_end = segs[i - 1].size;
      cut.damage_offset = segs[i - 1].size;
      cut.reason = "segments " + SegmentFileName(segs[i - 1].number + 1) + " to " +
                   SegmentFileName(segs[i].number - 1) + " are missing";
      cut.first_later = i;
      return HandleCut(env, dir, segs, cut, options, std::move(report));
    }
    ++report.segments;
    GNOMON_ASSIGN_OR_RETURN(bool damaged, ReadSegment(env, segs[i], fn, &report, &cut));
    if (damaged) {
      cut.index = i;
      cut.first_later = i + 1;
      return HandleCut(env, dir, segs, cut, options, std::move(report));
    }
  }
  return report;
}

Result<ReplayReport> ReplayWal(port::Env* env, const std::string& dir,
                               const std::function<Status(std::string_view record)>& fn) {
  return ReplayWal(env, dir, ReplayOptions{},
                   [&fn](std::string_view record, uint64_t) { return fn(record); });
}

}  // namespace gnomon::wal
