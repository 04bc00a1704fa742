#include "src/server/ingest/batch_builder.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/server/ingest/utf8.h"
#include "src/storage/identifier.h"

namespace gnomon::server {
namespace {

constexpr uint32_t kNoIndex = UINT32_MAX;

bool Fail(LineSyntaxError* error, uint32_t offset, std::string reason) {
  error->offset = offset;
  error->reason = std::move(reason);
  return false;
}

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  out += internal::TruncateUtf8(s, 64);
  out += '"';
  return out;
}

// Byte equality for the short keys compared on every line: word loads instead of a memcmp call.
inline bool EqualBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8) {
    uint64_t u, v, diff = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::memcpy(&u, x + i, 8);
      std::memcpy(&v, y + i, 8);
      diff |= u ^ v;
    }
    if (i != n) {  // the last 8 bytes, overlapping what was already compared
      std::memcpy(&u, x + n - 8, 8);
      std::memcpy(&v, y + n - 8, 8);
      diff |= u ^ v;
    }
    return diff == 0;
  }
  if (n >= 4) {
    uint32_t u1, v1, u2, v2;
    std::memcpy(&u1, x, 4);
    std::memcpy(&v1, y, 4);
    std::memcpy(&u2, x + n - 4, 4);
    std::memcpy(&v2, y + n - 4, 4);
    return ((u1 ^ v1) | (u2 ^ v2)) == 0;
  }
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return false;
  }
  return true;
}

}  // namespace

struct BatchBuilder::TableState {
  struct FieldInfo {
    uint32_t index;
    ValueType type;
  };
  struct FieldSlot {
    std::string_view name;  // the key of its `fields` entry (map nodes do not move)
    ValueType type;
    uint64_t seen;  // the stamp of the last line that used the field
  };

  std::string name;
  storage::TableBatch* batch = nullptr;  // created with the table's first accepted row
  // Mirrors of what the TableBatch holds, so a line can be checked completely before anything is
  // added to the batch.
  std::unordered_map<std::string, FieldInfo, StringHash, std::equal_to<>> fields;
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> series;  // canonical
  // The engine's view of the table (null when it has none, or the table does not exist yet),
  // and the batch's series it resolved: engine id -> batch series.
  std::unique_ptr<storage::SeriesResolver> resolver;
  bool prefetch_raw = false;  // the resolver's spellings outgrow the caches (RawKeysLarge)
  index::HashIndex series_by_id;
  std::unordered_set<std::string, StringHash, std::equal_to<>> tag_keys;
  // By field index. Fields are indexed in the order they first appear, and lines of a table
  // usually list their fields in that order (some omitted), so the next line's field is almost
  // always the slot after the previous match, or the one after that.
  std::vector<FieldSlot> by_index;

  void AddFieldMirror(std::string_view key, uint32_t index, ValueType type, uint64_t stamp) {
    GNOMON_CHECK_MSG(index == by_index.size(), "field mirror out of step with the TableBatch");
    auto it = fields.emplace(std::string(key), FieldInfo{index, type}).first;
    by_index.push_back(FieldSlot{it->first, type, stamp});
  }
};

namespace {
// Spreads dense ids over HashIndex's fingerprint bits (it takes its home slot from the top bits).
uint64_t IdHash(storage::SeriesId id) { return (id + 1) * 0x9E3779B97F4A7C15ULL; }
}  // namespace

BatchBuilder::BatchBuilder(storage::WriteBatch* batch, storage::Engine* engine, const LineLimits& limits)
    : batch_(batch), engine_(engine), limits_(limits), preexisting_tables_(batch->tables().size()) {}

BatchBuilder::~BatchBuilder() = default;

BatchBuilder::TableState* BatchBuilder::FindOrCreateTable(std::string_view name) {
  auto it = tables_.find(name);
  if (it != tables_.end()) return it->second.get();
  auto state = std::make_unique<TableState>();
  state->name = std::string(name);
  // Adopt a table the batch held before this builder started, with its fields and series.
  for (size_t i = 0; i < preexisting_tables_; ++i) {
    storage::TableBatch* t = batch_->tables()[i].get();
    if (t->name() != name) continue;
    state->batch = t;
    for (size_t f = 0; f < t->fields().size(); ++f) {
      state->AddFieldMirror(t->fields()[f].name, static_cast<uint32_t>(f), t->fields()[f].type, 0);
    }
    for (size_t s = 0; s < t->series().size(); ++s) {
      if (storage::SeriesId id = t->resolved_id(static_cast<uint32_t>(s)); id != storage::kUnresolvedSeries) {
        state->series_by_id.Insert(IdHash(id), static_cast<uint32_t>(s));
        continue;
      }
      tags_.clear();
      for (const storage::Tag& tag : t->series()[s]) tags_.push_back(ParsedTag{tag.key, tag.value, 0});
      EncodeCanonicalTags();
      state->series.emplace(canonical_, static_cast<uint32_t>(s));
      for (const storage::Tag& tag : t->series()[s]) state->tag_keys.insert(tag.key);
    }
    break;
  }
  if (engine_ != nullptr) {
    state->resolver = engine_->NewSeriesResolver(batch_->database(), state->name);
    // An adopted table resolved against another instance keeps adding series by their tags.
    if (state->resolver != nullptr && state->batch != nullptr && state->batch->has_resolved_series() &&
        state->batch->table_instance() != state->resolver->table_instance()) {
      state->resolver.reset();
    }
  }
  if (state->resolver != nullptr) state->prefetch_raw = state->resolver->RawKeysLarge();
  TableState* raw = state.get();
  tables_.emplace(raw->name, std::move(state));
  return raw;
}

bool BatchBuilder::WantsPrefetch() const { return last_table_ != nullptr && last_table_->prefetch_raw; }

void BatchBuilder::Prefetch(std::string_view series_key) {
  if (!WantsPrefetch()) return;
  // Only a key of the last line's table (the usual case); another measurement is left alone.
  const std::string_view name = last_table_->name;
  if (series_key.size() <= name.size() || series_key[name.size()] != ',' || !EqualBytes(series_key.substr(0, name.size()), name)) {
    return;
  }
  prefetched_key_ = series_key;
  prefetched_hash_ = index::RawKeyCache::Hash(series_key);
  last_table_->resolver->PrefetchRaw(prefetched_hash_);
}

uint32_t BatchBuilder::FindRawKey(std::string_view key, uint64_t hash) const {
  auto found = raw_key_index_.Find(hash, [&](uint32_t i) { return RawKey(series_refs_[i]) == key; });
  return found ? *found : kNoRef;
}

BatchBuilder::KeyResolution BatchBuilder::FindResolved(TableState* table, storage::SeriesId id) {
  KeyResolution r;
  r.id = id;
  const storage::TableBatch* tb = table->batch;
  auto found = table->series_by_id.Find(
      IdHash(id), [&](uint32_t s) { return tb != nullptr && tb->resolved_id(s) == id; });
  if (found) r.series = *found;
  return r;
}

BatchBuilder::KeyResolution BatchBuilder::ResolveTags(TableState* table) {
  KeyResolution r;
  if (table->resolver != nullptr) {
    tag_refs_.clear();
    for (const ParsedTag& t : tags_) tag_refs_.push_back(index::TagRef{t.key, t.value});
    if (auto id = table->resolver->Find(index::HashSeriesKey(tag_refs_), tag_refs_)) {
      return FindResolved(table, *id);
    }
  }
  EncodeCanonicalTags();
  auto it = table->series.find(canonical_);
  if (it != table->series.end()) r.series = it->second;
  return r;
}

void BatchBuilder::EncodeCanonicalTags() {
  canonical_.clear();
  for (const ParsedTag& t : tags_) {
    PutLengthPrefixed(&canonical_, t.key);
    PutLengthPrefixed(&canonical_, t.value);
  }
}

BatchBuilder::TableState* BatchBuilder::TableOfPlainKey(std::string_view series_key) {
  // The measurement, when it holds no escapes (else the parser must unescape it).
  std::string_view measurement = series_key.substr(0, series_key.find(','));
  if (measurement.empty() || measurement.find('\\') != std::string_view::npos) return nullptr;
  if (last_table_ != nullptr && EqualBytes(last_table_->name, measurement)) return last_table_;
  return FindOrCreateTable(measurement);
}

bool BatchBuilder::ParseKey(const ParsedLine& line, std::string_view* measurement,
                            LineSyntaxError* error) {
  if (!key_parser_.ParseSeriesKey(line.series_key, line.series_key_offset, measurement, &tags_,
                                  error)) {
    return false;
  }
  if (!internal::IsValidUtf8(*measurement)) {
    return Fail(error, line.series_key_offset, "measurement is not valid UTF-8");
  }
  if (Status s = storage::ValidateTableName(*measurement); !s.ok()) {
    return Fail(error, line.series_key_offset, "measurement: " + s.message());
  }
  if (limits_.max_tags != 0 && tags_.size() > limits_.max_tags) {
    return Fail(error, tags_[limits_.max_tags].offset,
                "line has " + std::to_string(tags_.size()) + " tags, more than the limit of " +
                    std::to_string(limits_.max_tags) + " (max-tags-per-line)");
  }
  for (const ParsedTag& t : tags_) {
    if (!internal::IsValidUtf8(t.key) || !internal::IsValidUtf8(t.value)) {
      return Fail(error, t.offset, "tag is not valid UTF-8");
    }
    if (t.key == "time") {
      return Fail(error, t.offset, "tag key \"time\" is reserved for the time column");
    }
    if (Status s = storage::ValidateColumnName(t.key); !s.ok()) {
      return Fail(error, t.offset, "tag key: " + s.message());
    }
    if (limits_.max_tag_value_bytes != 0 && t.value.size() > limits_.max_tag_value_bytes) {
      return Fail(error, t.offset,
                  "value of tag " + Quoted(t.key) + " is " + std::to_string(t.value.size()) +
                      " bytes, longer than the limit of " + std::to_string(limits_.max_tag_value_bytes) +
                      " (max-tag-value-bytes)");
    }
  }
  std::sort(tags_.begin(), tags_.end(),
            [](const ParsedTag& a, const ParsedTag& b) { return a.key < b.key; });
  for (size_t i = 1; i < tags_.size(); ++i) {
    if (tags_[i].key == tags_[i - 1].key) {
      return Fail(error, std::max(tags_[i].offset, tags_[i - 1].offset),
                  "duplicate tag key " + Quoted(tags_[i].key));
    }
  }
  return true;
}

bool BatchBuilder::ResolveNewKey(const ParsedLine& line, TableState** table,
                                 KeyResolution* resolution, bool* parsed, LineSyntaxError* error) {
  // A spelling an earlier request used: the table's cross-request cache names its series, and
  // the key needs no parsing (it was valid then, and the bytes are the same).
  TableState* known = TableOfPlainKey(line.series_key);
  index::RawKeyHash raw{};
  if (known != nullptr && known->resolver != nullptr) {
    const bool prefetched = line.series_key.data() == prefetched_key_.data() &&
                            line.series_key.size() == prefetched_key_.size();
    raw = prefetched ? prefetched_hash_ : index::RawKeyCache::Hash(line.series_key);
    if (auto id = known->resolver->FindRaw(raw)) {
      *table = known;
      *resolution = FindResolved(known, *id);
      last_table_ = known;
      return true;
    }
  }
  std::string_view measurement;
  if (!ParseKey(line, &measurement, error)) return false;
  *parsed = true;
  *table = known != nullptr ? known : FindOrCreateTable(measurement);
  last_table_ = *table;
  *resolution = ResolveTags(*table);
  if (known != nullptr && known->resolver != nullptr) {
    // Found by its tags: remember this spelling for later requests; else the engine will, once
    // it has created the series.
    if (resolution->id != storage::kUnresolvedSeries) known->resolver->RememberRaw(raw, resolution->id);
    resolution->has_raw = true;
    resolution->raw = raw;
  }
  return true;
}

bool BatchBuilder::ResolveFields(const ParsedLine& line, TableState* table, uint64_t stamp,
                                 bool tags_are_new, LineSyntaxError* error) {
  const size_t n = line.fields.size();
  field_index_.resize(n);
  pending_.clear();
  std::vector<TableState::FieldSlot>& slots = table->by_index;
  size_t cursor = 0;  // the slot after the last field resolved
  auto slot_matches = [&slots](size_t at, const ParsedField& f) {
    return at < slots.size() && slots[at].type == f.type && EqualBytes(slots[at].name, f.key);
  };
  for (size_t i = 0; i < n; ++i) {
    const ParsedField& f = line.fields[i];
    if (f.type == ValueType::kString) {
      if (!internal::IsValidUtf8(f.str)) {
        return Fail(error, f.offset, "string value of field " + Quoted(f.key) + " is not valid UTF-8");
      }
      if (limits_.max_string_field_bytes != 0 && f.str.size() > limits_.max_string_field_bytes) {
        return Fail(error, f.offset,
                    "string value of field " + Quoted(f.key) + " is " + std::to_string(f.str.size()) +
                        " bytes, longer than the limit of " + std::to_string(limits_.max_string_field_bytes) +
                        " (max-string-field-bytes)");
      }
    }
    uint32_t idx;
    if (slot_matches(cursor, f)) {
      idx = static_cast<uint32_t>(cursor);
    } else if (slot_matches(cursor + 1, f)) {
      idx = static_cast<uint32_t>(cursor + 1);
    } else {
      auto it = table->fields.find(f.key);
      if (it == table->fields.end()) {
        if (f.key == "time") {
          return Fail(error, f.offset, "field key \"time\" is reserved for the time column");
        }
        if (!internal::IsValidUtf8(f.key)) {
          return Fail(error, f.offset, "field key is not valid UTF-8");
        }
        if (Status s = storage::ValidateColumnName(f.key); !s.ok()) {
          return Fail(error, f.offset, "field key: " + s.message());
        }
        bool is_tag = table->tag_keys.contains(f.key);
        if (tags_are_new) {
          for (const ParsedTag& t : tags_) is_tag |= t.key == f.key;
        }
        if (is_tag) {
          return Fail(error, f.offset,
                      "field key " + Quoted(f.key) + " conflicts with a tag of the same name");
        }
        for (uint32_t j : pending_) {
          if (line.fields[j].key == f.key) {
            return Fail(error, f.offset, "duplicate field key " + Quoted(f.key));
          }
        }
        pending_.push_back(static_cast<uint32_t>(i));
        field_index_[i] = kNoIndex;
        continue;
      }
      if (it->second.type != f.type) {
        return Fail(error, f.offset,
                    "field " + std::string(f.key) + ": type " +
                        std::string(ValueTypeName(f.type)) + " conflicts with " +
                        std::string(ValueTypeName(it->second.type)) + " earlier in this request");
      }
      idx = it->second.index;
    }
    if (slots[idx].seen == stamp) {
      return Fail(error, f.offset, "duplicate field key " + Quoted(f.key));
    }
    slots[idx].seen = stamp;
    field_index_[i] = idx;
    cursor = idx + 1;
  }

  return true;
}

bool BatchBuilder::Add(const ParsedLine& line, int64_t time_ns, uint32_t line_no,
                       LineSyntaxError* error) {
  const uint64_t stamp = ++stamp_;

  // 1. Series: the raw-key cache, else parse, validate and canonicalise the key.
  TableState* table;
  uint32_t series = kNoIndex;
  uint32_t entry = kNoRef;
  uint64_t raw_hash = 0;
  KeyResolution resolution;
  if (last_series_ != kNoRef) {
    const uint32_t next = series_refs_[last_series_].next;
    if (next != kNoRef && EqualBytes(RawKey(series_refs_[next]), line.series_key)) entry = next;
  }
  if (entry == kNoRef) {
    raw_hash = Hash64(line.series_key);
    entry = FindRawKey(line.series_key, raw_hash);
  }
  const bool cache_miss = entry == kNoRef;
  bool parsed = false;  // tags_ holds this line's tags
  if (!cache_miss) {
    table = series_refs_[entry].table;
    series = series_refs_[entry].series;
  } else {
    if (!ResolveNewKey(line, &table, &resolution, &parsed, error)) return false;
    series = resolution.series;
  }
  // A series new to the batch: its tags must not name a field this request already used.
  const bool new_series = cache_miss && series == kNoIndex;
  if (new_series && parsed) {
    for (const ParsedTag& t : tags_) {
      if (table->fields.contains(t.key)) {
        return Fail(error, t.offset,
                    "tag key " + Quoted(t.key) + " conflicts with a field of the same name in " +
                        Quoted(table->name) + " earlier in this request");
      }
    }
  }

  // 2. Fields: the slots after the previous match, else the table's field map; new fields wait.
  if (!ResolveFields(line, table, stamp, new_series && parsed, error)) return false;
  const size_t n = line.fields.size();

  // 3. The line is good: commit table, series and new fields, then the row.
  if (table->batch == nullptr) table->batch = batch_->Table(table->name);
  storage::TableBatch* tb = table->batch;
  if (new_series) {
    for (size_t i = 0; parsed && i < tags_.size(); ++i) {
      // Look first: emplace would build (and allocate) a node only to drop it, and the keys are
      // nearly always known.
      if (!table->tag_keys.contains(tags_[i].key)) table->tag_keys.emplace(tags_[i].key);
    }
    if (resolution.id != storage::kUnresolvedSeries) {
      if (!tb->has_resolved_series()) tb->set_table_instance(table->resolver->table_instance());
      series = tb->AddResolvedSeries(resolution.id);
      table->series_by_id.Insert(IdHash(resolution.id), series);
    } else {
      storage::TagSet tags;
      tags.reserve(tags_.size());
      for (const ParsedTag& t : tags_) tags.push_back(storage::Tag{std::string(t.key), std::string(t.value)});
      series = tb->AddSeries(std::move(tags));
      if (resolution.has_raw) tb->AddSpelling(series, resolution.raw);
      table->series.emplace(canonical_, series);
    }
  }
  if (cache_miss) {
    entry = static_cast<uint32_t>(series_refs_.size());
    series_refs_.push_back(SeriesRef{static_cast<uint32_t>(raw_keys_.size()),
                                     static_cast<uint32_t>(line.series_key.size()), table, series});
    raw_keys_.append(line.series_key);
    raw_key_index_.Insert(raw_hash, entry);
  }
  if (last_series_ != kNoRef) series_refs_[last_series_].next = entry;
  last_series_ = entry;
  for (uint32_t i : pending_) {
    const ParsedField& f = line.fields[i];
    uint32_t idx = kNoIndex;
    const bool added = tb->FindOrAddField(f.key, f.type, &idx);
    GNOMON_CHECK_MSG(added, "field mirror out of step with the TableBatch");
    table->AddFieldMirror(f.key, idx, f.type, stamp);
    field_index_[i] = idx;
  }

  row_values_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const ParsedField& f = line.fields[i];
    storage::FieldValue& v = row_values_[i];
    v.field = field_index_[i];
    switch (f.type) {
      case ValueType::kFloat64: v.f64 = f.f64; break;
      case ValueType::kInt64: v.i64 = f.i64; break;
      case ValueType::kUInt64: v.u64 = f.u64; break;
      case ValueType::kBool: v.u64 = 0; v.b = f.b; break;
      case ValueType::kString: v = tb->MakeStringValue(field_index_[i], f.str); break;
      default: GNOMON_CHECK_MSG(false, "tokenizer produced a field without a value type");
    }
  }
  tb->AddRow(series, time_ns, line_no, row_values_.data(), n);
  return true;
}

}  // namespace gnomon::server
