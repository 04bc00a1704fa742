#include "src/storage/table.h"

#include <algorithm>
#include <climits>
#include <span>
#include <thread>
#include <vector>

#include "src/base/logging.h"
#include "src/base/time_util.h"
#include "src/storage/data_dir_layout.h"

namespace gnomon::storage {

Result<std::shared_ptr<Table>> Table::Open(port::Env* env, std::string name, std::string dir,
                                           std::string dir_name, const ManifestTable* manifest,
                                           std::shared_ptr<CacheBudget> stats_budget) {
  GNOMON_RETURN_IF_ERROR(env->CreateDirs(dir));
  std::shared_ptr<Table> table(new Table(env, std::move(name), dir, std::move(dir_name), std::move(stats_budget)));
  if (manifest != nullptr) {
    table->set_in_manifest();
    for (const auto& [field, type] : manifest->fields) {
      ColumnId id;
      GNOMON_RETURN_IF_ERROR(table->schema_.AddField(field, type, &id));
    }
    for (const std::string& key : manifest->tag_keys) table->schema_.AddTagKey(key);
    const int64_t now = SteadyNanos();  // partitions present at open count as flushed now
    for (const ManifestSegment& seg : manifest->segments) {
      const std::string path = table->SegmentPath(seg.file_number);
      auto reader = SegmentReader::Open(env, path, table->stats_budget_);
      if (!reader.ok()) {
        // Confined: the rest of the table opens; this file's range answers with the error.
        GNOMON_LOG_ERROR("table {}: segment {} is damaged and fenced off ({}); see gnomon verify", table->name_, path,
                         reader.status().ToString());
        table->damaged_.push_back(DamagedSegment{seg, path, reader.status()});
        continue;
      }
      table->segments_.push_back(SegmentRef{seg, std::move(*reader)});
      table->last_flush_[seg.partition_start] = now;
    }
    std::sort(table->segments_.begin(), table->segments_.end(),
              [](const SegmentRef& a, const SegmentRef& b) { return a.meta.sequence < b.meta.sequence; });
  }
  // The last-value cache comes from the segments alone, so it is rebuilt on a second thread while
  // this one decodes the registry: at ten million series each takes over ten seconds.
  Status last_values;
  std::thread rebuild;
  if (!table->segments_.empty()) rebuild = std::thread([&] { last_values = table->RebuildLastValues(); });
  // After the segments: the series they hold tell the registry how many it must find.
  index::RegistryOptions registry_options;
  registry_options.known_series = table->SeriesInSegments();
  auto registry = index::SeriesRegistry::Open(env, port::JoinPath(dir, "series"), registry_options);
  if (rebuild.joinable()) rebuild.join();
  if (!registry.ok()) return registry.status();
  GNOMON_RETURN_IF_ERROR(last_values);
  table->registry_ = std::move(*registry);
  // Tag keys of series created since the manifest was last saved: WAL records that name series
  // by id carry no tags, so the schema learns these keys from the registry.
  for (const std::string& key : table->registry_->TagKeys()) table->schema_.AddTagKey(key);
  return table;
}

uint32_t Table::SeriesInSegments() const {
  uint32_t n = 0;
  for (const SegmentRef& seg : segments_) {
    const auto& series = seg.reader->index().series;  // ascending id
    if (!series.empty()) n = std::max(n, series.back().id + 1);
  }
  return n;
}

std::string Table::SegmentPath(uint64_t file_number) const {
  return port::JoinPath(dir_, SegmentFileName(file_number));
}

Status Table::Prepare(const TableBatch& batch, bool accept_partial, PreparedTable* out,
                      std::vector<RowError>* rejected) {
  out->field_ids.assign(batch.fields().size(), 0);
  out->series_ids.assign(batch.series().size(), 0);
  out->row_rejected.clear();
  std::vector<uint8_t> field_conflict(batch.fields().size(), 0);
  std::vector<std::string> conflict_reason(batch.fields().size());
  bool any_conflict = false;
  {
    std::unique_lock lock(mu_);
    for (size_t f = 0; f < batch.fields().size(); ++f) {
      const FieldDef& def = batch.fields()[f];
      if (schema_.HasTagKey(def.name)) {
        field_conflict[f] = 1;
        conflict_reason[f] = "field " + def.name + " has the name of a tag of table " + name_;
        any_conflict = true;
        continue;
      }
      if (schema_.FindField(def.name) < 0 && !MayAddColumn()) {
        if (!accept_partial) return Status::InvalidArgument(ColumnLimitReason("field", def.name));
        field_conflict[f] = 1;
        conflict_reason[f] = ColumnLimitReason("field", def.name);
        any_conflict = true;
        continue;
      }
      Status s = schema_.AddField(def.name, def.type, &out->field_ids[f]);
      if (!s.ok()) {
        field_conflict[f] = 1;
        conflict_reason[f] = s.message() + " (table " + name_ + ")";
        any_conflict = true;
      }
    }
    // Series of a table mostly share one list of tag keys: a key equal to the previous series'
    // key at the same position was checked and added already.
    const TagSet* prev = nullptr;
    for (const TagSet& tags : batch.series()) {
      for (size_t k = 0; k < tags.size(); ++k) {
        const Tag& t = tags[k];
        if (prev != nullptr && k < prev->size() && (*prev)[k].key == t.key) continue;
        if (schema_.FindField(t.key) >= 0) {
          return Status::TypeConflict("tag " + t.key + " has the name of a field of table " + name_);
        }
        if (!schema_.HasTagKey(t.key)) {
          if (!MayAddColumn()) return Status::InvalidArgument(ColumnLimitReason("tag", t.key));
          schema_.AddTagKey(t.key);
        }
      }
      prev = &tags;
    }
  }
  if (any_conflict) {
    out->row_rejected.assign(batch.rows().size(), 0);
    for (size_t r = 0; r < batch.rows().size(); ++r) {
      const Row& row = batch.rows()[r];
      for (uint32_t i = 0; i < row.value_count; ++i) {
        uint32_t f = batch.values()[row.value_begin + i].field;
        if (!field_conflict[f]) continue;
        if (!accept_partial) {
          return Status::TypeConflict("line " + std::to_string(row.line) + ": " + conflict_reason[f]);
        }
        out->row_rejected[r] = 1;
        rejected->push_back(RowError{row.line, conflict_reason[f]});
        break;
      }
    }
  }
  const auto registered = static_cast<SeriesId>(registry_->size());
  std::vector<uint32_t> by_tags;  // the batch's series it names by their tags
  for (size_t s = 0; s < batch.series().size(); ++s) {
    const SeriesId id = batch.resolved_id(static_cast<uint32_t>(s));
    if (id == kUnresolvedSeries) {
      by_tags.push_back(static_cast<uint32_t>(s));
      continue;
    }
    // Resolved by the ingest layer, or named by a WAL record: the registry made it durable
    // before the record was written, so an unknown id is damage, not a race.
    if (id >= registered) {
      return Status::Corruption("series id " + std::to_string(id) + " of table " + name_ +
                                " is not in its registry " + port::JoinPath(dir_, "series") + " (" +
                                std::to_string(registered) + " series)");
    }
    out->series_ids[s] = id;
  }
  if (by_tags.empty()) return Status::OK();
  std::vector<uint8_t> refused;  // by batch series: over the series limit, no id
  if (limits_ != nullptr && limits_->limiting()) {
    GNOMON_RETURN_IF_ERROR(ResolveSeriesLimited(batch, by_tags, accept_partial, out, rejected, &refused));
  } else {
    GNOMON_RETURN_IF_ERROR(ResolveSeriesByTags(batch, by_tags, out));
  }
  RememberSpellings(batch, *out, refused);
  return Status::OK();
}

Status Table::ResolveSeriesByTags(const TableBatch& batch, std::span<const uint32_t> by_tags, PreparedTable* out) {
  std::vector<index::TagRef> refs;
  std::vector<size_t> ends;
  std::vector<uint64_t> hashes;
  ends.reserve(by_tags.size());
  hashes.reserve(by_tags.size());
  for (uint32_t s : by_tags) {
    const size_t begin = refs.size();
    for (const Tag& t : batch.series()[s]) refs.push_back(index::TagRef{t.key, t.value});
    hashes.push_back(index::HashSeriesKey(std::span(refs).subspan(begin)));
    ends.push_back(refs.size());
  }
  std::vector<std::span<const index::TagRef>> tags(by_tags.size());
  for (size_t i = 0, begin = 0; i < by_tags.size(); begin = ends[i++]) {
    tags[i] = std::span<const index::TagRef>(refs).subspan(begin, ends[i] - begin);
  }
  std::vector<SeriesId> ids(by_tags.size());
  size_t created = 0;
  Status s = registry_->GetOrCreateMany(tags, hashes, ids, &created);
  // Counted even on an error: the series created before it stay created.
  if (created > 0 && limits_ != nullptr) limits_->Add(created);
  GNOMON_RETURN_IF_ERROR(s);
  for (size_t i = 0; i < by_tags.size(); ++i) out->series_ids[by_tags[i]] = ids[i];
  return Status::OK();
}

Status Table::ResolveSeriesLimited(const TableBatch& batch, std::span<const uint32_t> by_tags, bool accept_partial,
                                   PreparedTable* out, std::vector<RowError>* rejected,
                                   std::vector<uint8_t>* refused) {
  std::vector<index::TagRef> refs;
  for (uint32_t s : by_tags) {
    refs.clear();
    for (const Tag& t : batch.series()[s]) refs.push_back(index::TagRef{t.key, t.value});
    // Only a new series takes from the limit: look before creating.
    if (!registry_->Find(refs)) {
      if (!limits_->TryTake()) {
        if (refused->empty()) refused->assign(batch.series().size(), 0);
        (*refused)[s] = 1;
        GNOMON_RETURN_IF_ERROR(RejectSeriesOverLimit(batch, s, accept_partial, out, rejected));
        continue;
      }
      bool created = false;
      auto id = registry_->GetOrCreate(refs, &created);
      if (!created) limits_->GiveBack();
      GNOMON_RETURN_IF_ERROR(id.status());
      out->series_ids[s] = *id;
      continue;
    }
    bool created = false;
    GNOMON_ASSIGN_OR_RETURN(out->series_ids[s], registry_->GetOrCreate(refs, &created));
    if (created) limits_->Add(1);
  }
  return Status::OK();
}

void Table::RememberSpellings(const TableBatch& batch, const PreparedTable& prepared,
                              const std::vector<uint8_t>& refused) {
  if (batch.spellings().empty()) return;
  std::vector<std::pair<index::RawKeyHash, SeriesId>> learnt;
  learnt.reserve(batch.spellings().size());
  for (const TableBatch::Spelling& sp : batch.spellings()) {
    if (!refused.empty() && refused[sp.series]) continue;
    learnt.emplace_back(sp.hash, prepared.series_ids[sp.series]);
  }
  raw_keys_.InsertMany(learnt);
}

bool Table::MayAddColumn() const {
  return limits_ == nullptr || limits_->MayAddColumn(schema_.fields().size() + schema_.tag_keys().size());
}

std::string Table::ColumnLimitReason(std::string_view kind, std::string_view column) const {
  return "max-columns-per-table limit exceeded: table " + name_ + " of database " + limits_->database() +
         " has " + std::to_string(schema_.fields().size() + schema_.tag_keys().size()) + " columns (limit " +
         std::to_string(limits_->max_columns()) + "); new " + std::string(kind) + " " + std::string(column) +
         " refused";
}

Status Table::RejectSeriesOverLimit(const TableBatch& batch, uint32_t series, bool accept_partial,
                                    PreparedTable* out, std::vector<RowError>* rejected) {
  std::string key = name_;
  for (const Tag& t : batch.series()[series]) key += "," + t.key + "=" + t.value;
  const std::string reason = "max-series-per-database limit exceeded: database " + limits_->database() +
                             " has " + std::to_string(limits_->count()) + " series (limit " +
                             std::to_string(limits_->max()) + "); new series " + key + " refused";
  if (!accept_partial) return Status::InvalidArgument(reason);
  if (out->row_rejected.empty()) out->row_rejected.assign(batch.rows().size(), 0);
  for (size_t r = 0; r < batch.rows().size(); ++r) {
    if (batch.rows()[r].series != series || out->row_rejected[r]) continue;
    out->row_rejected[r] = 1;
    rejected->push_back(RowError{batch.rows()[r].line, reason});
  }
  return Status::OK();
}

size_t Table::Apply(const TableBatch& batch, const PreparedTable& prepared) {
  const auto& rows = batch.rows();
  const size_t num_series = batch.series().size();
  const bool any_rejected = !prepared.row_rejected.empty();
  // Rows grouped by series, write order kept within each (a stable counting sort): the memtable
  // then appends a series' rows together, column by column, and a series' state is touched once
  // per batch rather than once per row. Only a series' newest rows in the batch can change its
  // cached last row (an older row is older than the cache or replaced by the newer one), so only
  // those are offered: the same result as offering every row in order.
  std::vector<uint32_t> start(num_series + 1, 0);
  std::vector<int64_t> newest(num_series, INT64_MIN);
  for (size_t r = 0; r < rows.size(); ++r) {
    if (any_rejected && prepared.row_rejected[r]) continue;
    ++start[rows[r].series + 1];
    newest[rows[r].series] = std::max(newest[rows[r].series], rows[r].time);
  }
  for (size_t s = 0; s < num_series; ++s) start[s + 1] += start[s];
  std::vector<uint32_t> order(start[num_series]);
  {
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (size_t r = 0; r < rows.size(); ++r) {
      if (any_rejected && prepared.row_rejected[r]) continue;
      order[next[rows[r].series]++] = static_cast<uint32_t>(r);
    }
  }
  // With thousands of series per batch every series' memtable state is a cache miss: it is
  // fetched a few series ahead, in dependent steps (Memtable::Prefetch), with the run's values.
  constexpr size_t kAhead[3] = {12, 8, 4};
  const FieldValue* values = batch.values().data();
  std::unique_lock lock(mu_);
  const size_t bytes_before = active_->ApproximateBytes();
  const bool prefetch_last_values = last_values_.WorthPrefetching();
  for (size_t s = 0; s < num_series; ++s) {
    for (int step = 0; step < 3; ++step) {
      if (s + kAhead[step] < num_series) {
        active_->Prefetch(prepared.series_ids[s + kAhead[step]], step);
      }
    }
    if (prefetch_last_values && s + kAhead[1] < num_series) {
      last_values_.Prefetch(prepared.series_ids[s + kAhead[1]]);
    }
    if (s + kAhead[2] < num_series) {
      for (uint32_t k = start[s + kAhead[2]]; k < start[s + kAhead[2] + 1]; ++k) {
        const Row& row = rows[order[k]];
        const char* p = reinterpret_cast<const char*>(values + row.value_begin);
        for (size_t off = 0; off < row.value_count * sizeof(FieldValue); off += 64) {
          __builtin_prefetch(p + off);
        }
      }
    }
    std::span<const uint32_t> run(order.data() + start[s], start[s + 1] - start[s]);
    if (run.empty()) continue;
    SeriesId id = prepared.series_ids[s];
    active_->AppendRows(id, batch, run, prepared.field_ids, schema_);
    for (uint32_t r : run) {
      if (rows[r].time == newest[s]) {
        last_values_.Offer(id, rows[r].time, batch, rows[r], prepared.field_ids);
      }
    }
  }
  return active_->ApproximateBytes() - bytes_before;
}

size_t Table::MemtableBytes() const {
  std::shared_lock lock(mu_);
  return active_->ApproximateBytes();
}

Status Table::SyncRegistry() { return registry_->Sync(); }

Status Table::CheckpointRegistry(uint32_t min_log_series, double min_log_fraction) {
  const uint32_t in_snapshot = registry_->SeriesInSnapshot();  // before size(): see its comment
  const uint32_t log = static_cast<uint32_t>(registry_->size()) - in_snapshot;
  if (log == 0 || log < min_log_series || log < min_log_fraction * in_snapshot) return Status::OK();
  const int64_t start = SteadyNanos();
  GNOMON_RETURN_IF_ERROR(registry_->Checkpoint().WithContext("table " + name_));
  GNOMON_LOG_INFO("table {}: series registry checkpointed ({} series, {} of them from the log) in {:.2f} s", name_,
                  registry_->size(), log, static_cast<double>(SteadyNanos() - start) / 1e9);
  return Status::OK();
}

namespace {

class TableSeriesResolver final : public SeriesResolver {
 public:
  TableSeriesResolver(std::shared_ptr<const Table> table, const index::SeriesRegistry* registry,
                      index::RawKeyCache* raw_keys)
      : table_(std::move(table)), registry_(registry), raw_keys_(raw_keys) {}
  const std::string& table_instance() const override { return table_->dir_name(); }
  std::optional<SeriesId> Find(uint64_t hash,
                               std::span<const index::TagRef> canonical_tags) const override {
    return registry_->Find(hash, canonical_tags);
  }
  std::optional<SeriesId> FindRaw(const index::RawKeyHash& hash) const override {
    return raw_keys_->Find(hash);
  }
  void RememberRaw(const index::RawKeyHash& hash, SeriesId id) override { raw_keys_->Insert(hash, id); }
  bool RawKeysLarge() const override { return raw_keys_->Large(); }
  void PrefetchRaw(const index::RawKeyHash& hash) const override { raw_keys_->Prefetch(hash); }

 private:
  std::shared_ptr<const Table> table_;  // keeps the registry and the cache alive
  const index::SeriesRegistry* registry_;
  index::RawKeyCache* raw_keys_;
};

}  // namespace

std::unique_ptr<SeriesResolver> Table::NewSeriesResolver() const {
  return std::make_unique<TableSeriesResolver>(shared_from_this(), registry_.get(), &raw_keys_);
}

std::vector<std::string> Table::TakeObsoleteFiles() {
  std::unique_lock lock(mu_);
  return std::exchange(obsolete_files_, {});
}

TableInfo Table::Info() const {
  std::shared_lock lock(mu_);
  TableInfo info;
  info.name = name_;
  info.columns.push_back(ColumnInfo{"time", ColumnInfo::Kind::kTime, ValueType::kTimestamp});
  for (const std::string& key : schema_.tag_keys()) {
    info.columns.push_back(ColumnInfo{key, ColumnInfo::Kind::kTag, ValueType::kString});
  }
  for (const FieldColumn& f : schema_.fields()) {
    info.columns.push_back(ColumnInfo{f.name, ColumnInfo::Kind::kField, f.type});
  }
  return info;
}

ManifestTable Table::ToManifest() const {
  std::shared_lock lock(mu_);
  ManifestTable m;
  m.name = name_;
  m.dir_name = dir_name_;
  for (const FieldColumn& f : schema_.fields()) m.fields.emplace_back(f.name, f.type);
  m.tag_keys = schema_.tag_keys();
  for (const SegmentRef& s : segments_) m.segments.push_back(s.meta);
  for (const DamagedSegment& d : damaged_) m.segments.push_back(d.meta);
  return m;
}

Status Table::CheckUndamaged(int64_t min_time, int64_t max_time) const {
  std::shared_lock lock(mu_);
  const DamagedSegment* d = FirstDamagedIn(damaged_, min_time, max_time);
  if (d == nullptr) return Status::OK();
  return Status::Corruption("table " + name_ + ": rows in " + FormatRfc3339(d->meta.min_time) + " .. " +
                            FormatRfc3339(d->meta.max_time) + " are in damaged segment " + d->path + ": " +
                            d->error.message());
}

std::vector<DamagedSegment> Table::DamagedSegments() const {
  std::shared_lock lock(mu_);
  return damaged_;
}

void Table::Stats(EngineStats* stats) const {
  std::shared_lock lock(mu_);
  stats->series += registry_->size();
  stats->series_index_bytes += registry_->MemoryUsage() + raw_keys_.MemoryUsage();
  stats->last_value_bytes += last_values_.MemoryUsage();
  stats->memtable_bytes += active_->ApproximateBytes();
  for (const auto& f : frozen_) stats->memtable_bytes += f->ApproximateBytes();
  stats->segment_files += segments_.size();
  for (const SegmentRef& s : segments_) {
    stats->segment_bytes += s.meta.bytes;
    stats->segment_index_bytes += s.reader->index().MemoryUsage();
  }
  stats->damaged_segments += damaged_.size();
}

}  // namespace gnomon::storage
