#include "test/integration/tsbs_cpu_source.h"

#include <algorithm>
#include <charconv>

#include "src/bench/generated_source.h"
#include "src/bench/tsbs_reference.h"

namespace gnomon::test {
namespace {

constexpr size_t kReadChunk = 1 << 20;
constexpr std::string_view kHostTag = ",hostname=host_";

bool ParseInt(std::string_view text, int64_t* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

TsbsCpuSource::TsbsCpuSource(std::unique_ptr<bench::ByteSource> input, size_t batch_lines,
                             std::vector<int> sampled_hosts, uint64_t max_lines)
    : input_(std::move(input)),
      batch_lines_(batch_lines),
      sampled_hosts_(std::move(sampled_hosts)),
      max_lines_(max_lines) {}

Result<std::unique_ptr<TsbsCpuSource>> TsbsCpuSource::Open(size_t batch_lines,
                                                           std::vector<int> sampled_hosts,
                                                           uint64_t max_lines) {
  if (batch_lines == 0) return Status::InvalidArgument("batch_lines must be positive");
  auto input = bench::NewGeneratedByteSource(
      bench::TsbsReferenceConfig(*bench::FindTsbsReference("cpu-only-s100-1d")));
  return std::unique_ptr<TsbsCpuSource>(
      new TsbsCpuSource(std::move(input), batch_lines, std::move(sampled_hosts), max_lines));
}

Result<bool> TsbsCpuSource::Fill() {
  if (eof_) return false;
  buffer_.erase(0, buffer_pos_);
  buffer_pos_ = 0;
  size_t old = buffer_.size();
  buffer_.resize(old + kReadChunk);
  GNOMON_ASSIGN_OR_RETURN(size_t n, input_->Read(buffer_.data() + old, kReadChunk));
  buffer_.resize(old + n);
  if (n == 0) {
    eof_ = true;
    GNOMON_RETURN_IF_ERROR(input_->Close());
    return false;
  }
  return true;
}

Status TsbsCpuSource::ParseLine(std::string_view line, TsbsBatch* batch) {
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument("TSBS line " + std::to_string(lines_) + ": " + std::string(why) +
                                   ": " + std::string(line.substr(0, 120)));
  };
  size_t at = line.find(kHostTag);
  if (line.rfind("cpu,", 0) != 0 || at == std::string_view::npos) return bad("not a cpu line");
  size_t host_begin = at + kHostTag.size();
  size_t host_end = line.find_first_of(", ", host_begin);
  int64_t host = -1;
  if (host_end == std::string_view::npos ||
      !ParseInt(line.substr(host_begin, host_end - host_begin), &host) || host < 0 ||
      host >= kTsbsHosts) {
    return bad("bad hostname");
  }
  ++batch->rows;
  ++batch->rows_per_host[host];
  if (std::find(sampled_hosts_.begin(), sampled_hosts_.end(), host) == sampled_hosts_.end()) {
    return Status::OK();
  }
  // TSBS lines have no escapes: "cpu,TAGS FIELDS TIMESTAMP".
  size_t fields_begin = line.find(' ');
  size_t fields_end = line.rfind(' ');
  if (fields_begin == std::string_view::npos || fields_end <= fields_begin) return bad("no fields");
  CpuRow row;
  if (!ParseInt(line.substr(fields_end + 1), &row.time)) return bad("bad timestamp");
  std::string_view fields = line.substr(fields_begin + 1, fields_end - fields_begin - 1);
  for (size_t f = 0; f < kCpuFieldCount; ++f) {
    size_t comma = fields.find(',');
    std::string_view field = fields.substr(0, comma);
    fields = comma == std::string_view::npos ? std::string_view() : fields.substr(comma + 1);
    size_t eq = field.find('=');
    if (eq == std::string_view::npos || field.substr(0, eq) != kCpuFields[f] || field.back() != 'i' ||
        !ParseInt(field.substr(eq + 1, field.size() - eq - 2), &row.values[f])) {
      return bad("unexpected field " + std::string(field));
    }
  }
  if (!fields.empty()) return bad("extra fields");
  batch->sampled[static_cast<int>(host)].push_back(row);
  return Status::OK();
}

Result<std::optional<TsbsBatch>> TsbsCpuSource::Next() {
  std::lock_guard lock(mu_);
  TsbsBatch batch;
  batch.index = next_index_;
  while (batch.rows < batch_lines_ && lines_ < max_lines_) {
    size_t nl = buffer_.find('\n', buffer_pos_);
    if (nl == std::string::npos) {
      GNOMON_ASSIGN_OR_RETURN(bool more, Fill());
      if (more) continue;
      if (buffer_pos_ < buffer_.size()) return Status::InvalidArgument("TSBS data ends mid-line");
      break;
    }
    std::string_view line(buffer_.data() + buffer_pos_, nl - buffer_pos_);
    buffer_pos_ = nl + 1;
    if (line.empty()) continue;
    ++lines_;
    GNOMON_RETURN_IF_ERROR(ParseLine(line, &batch));
    batch.body.append(line);
    batch.body.push_back('\n');
  }
  if (batch.rows == 0) return std::optional<TsbsBatch>();
  ++next_index_;
  return std::optional<TsbsBatch>(std::move(batch));
}

}  // namespace gnomon::test
