// BatchBuilder: turns tokenised lines (ParsedLine) into rows of a storage::WriteBatch.
//
// Series are resolved through a cache keyed by the raw series-key bytes of the line (measurement
// and tag section as written), so a repeated series costs one hash look-up; only on a miss are
// the tags unescaped, validated, sorted and matched by their canonical form. Before hashing, the
// key is compared with the one that followed the previous line's key last time (see SeriesRef).
// Given an engine, a series new to the batch is looked up in its table's registry: one that
// exists is added by id (no tag set is built, and the WAL names it by id); only a series the
// engine has never seen is added with its tags.
// Field columns are matched against the table's fields in first-seen order, one or two slots past
// the previous match, so lines listing their fields in a fixed order (some possibly omitted) cost
// a compare per field; other orders fall back to a hash look-up.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/base/hash.h"
#include "src/index/hash_index.h"
#include "src/index/raw_key_cache.h"
#include "src/index/series_key.h"
#include "src/server/ingest/line_limits.h"
#include "src/server/ingest/line_protocol_parser.h"
#include "src/storage/engine.h"
#include "src/storage/write_batch.h"

namespace gnomon::server {

class BatchBuilder {
 public:
  // `batch` must outlive the builder; it may already hold rows (its tables, fields and series
  // are then reused, not duplicated). Nobody else may modify it while the builder is in use.
  // `engine` (may be null: every series is added with its tags) resolves existing series of
  // batch->database(). Lines past `limits` (tags, their values, string values; see LineLimits)
  // are rejected.
  explicit BatchBuilder(storage::WriteBatch* batch, storage::Engine* engine = nullptr,
                        const LineLimits& limits = LineLimits());
  ~BatchBuilder();
  BatchBuilder(const BatchBuilder&) = delete;
  BatchBuilder& operator=(const BatchBuilder&) = delete;

  // Appends `line` as one row at `time_ns`, recording `line_no` in the row. Returns false and
  // fills *error (offset within the line the ParsedLine came from) when the line cannot be added:
  // a malformed series key, duplicate tag or field keys, the reserved key "time", a tag and a
  // field of the same name, invalid UTF-8, a name the engine would refuse (storage/identifier.h),
  // a limit passed, or a field type that conflicts with an earlier line of this batch. A rejected line leaves the batch unchanged.
  bool Add(const ParsedLine& line, int64_t time_ns, uint32_t line_no, LineSyntaxError* error);

  // Whether Prefetch pays: the table of the last line added keeps more spellings of series than
  // the CPU's caches hold (decided once a request, when the builder meets the table).
  bool WantsPrefetch() const;
  // Starts loading what resolving `series_key` (the next line's, as Add will see it) reads in
  // the table's cross-request cache, so that the miss overlaps the current line's work; the
  // hash is kept for that line's Add.
  void Prefetch(std::string_view series_key);

  // Distinct raw series keys seen so far (for tests and statistics).
  size_t cached_series_keys() const { return series_refs_.size(); }

 private:
  struct TableState;
  static constexpr uint32_t kNoRef = UINT32_MAX;
  // One distinct raw series key of the batch (an entry of series_refs_; its bytes in raw_keys_).
  struct SeriesRef {
    uint32_t key_offset;
    uint32_t key_size;
    TableState* table;
    uint32_t series;
    // The entry of the line that followed this one last time. Writers send their series in the
    // same order every interval, so this usually names the next line's key and one compare
    // replaces hashing it.
    uint32_t next = kNoRef;
  };
  // How a line's series key was resolved on a cache miss.
  struct KeyResolution {
    uint32_t series = kNoRef;                     // the batch's series, when already in it
    storage::SeriesId id = storage::kUnresolvedSeries;  // the engine's id, when it has one
    // The key's fingerprint for the table's cross-request cache, when the table has one: the
    // engine remembers it for a series it creates (TableBatch::AddSpelling).
    bool has_raw = false;
    index::RawKeyHash raw{};
  };

  TableState* FindOrCreateTable(std::string_view name);
  // Fills canonical_ with a length-prefixed encoding of the sorted tags_.
  void EncodeCanonicalTags();
  // The sorted, validated tags_ of a line new to the cache: in the batch already, known to the
  // engine (by id), or new.
  KeyResolution ResolveTags(TableState* table);
  // Engine series `id` of `table`: the batch's series for it, if any.
  KeyResolution FindResolved(TableState* table, storage::SeriesId id);
  // The table of a key whose measurement holds no escapes (created if new), else null.
  TableState* TableOfPlainKey(std::string_view series_key);
  // Parses and validates the key of `line` into its measurement and the sorted tags_.
  bool ParseKey(const ParsedLine& line, std::string_view* measurement, LineSyntaxError* error);
  // Resolves the key of a line the batch's raw-key cache lacks: through the table's
  // cross-request cache, else by parsing it (*parsed: tags_ then holds its tags).
  bool ResolveNewKey(const ParsedLine& line, TableState** table, KeyResolution* resolution,
                     bool* parsed, LineSyntaxError* error);
  // Fills field_index_ (kNoIndex for fields new to the table, listed in pending_) for the fields
  // of `line`, checking types, duplicates and names; `tags_are_new`: tags_ holds the line's tags
  // and its series is new to the batch (a new field must not take one of their names).
  bool ResolveFields(const ParsedLine& line, TableState* table, uint64_t stamp, bool tags_are_new,
                     LineSyntaxError* error);
  std::string_view RawKey(const SeriesRef& ref) const {
    return std::string_view(raw_keys_).substr(ref.key_offset, ref.key_size);
  }
  uint32_t FindRawKey(std::string_view key, uint64_t hash) const;

  storage::WriteBatch* batch_;
  storage::Engine* engine_;
  const LineLimits limits_;
  size_t preexisting_tables_;  // tables the batch held before this builder; others are ours
  LineParser key_parser_;
  std::unordered_map<std::string, std::unique_ptr<TableState>, StringHash, std::equal_to<>>
      tables_;
  // The raw-key cache: Hash64(raw key) -> index into series_refs_.
  index::HashIndex raw_key_index_;
  std::vector<SeriesRef> series_refs_;
  std::string raw_keys_;
  uint32_t last_series_ = kNoRef;  // the entry of the last line added
  TableState* last_table_ = nullptr;  // the table of the last key resolved
  uint64_t stamp_ = 0;  // one per Add, for duplicate-field detection
  // The key Prefetch last hashed (its bytes in the request body) and its hash.
  std::string_view prefetched_key_;
  index::RawKeyHash prefetched_hash_{};

  // Per-line scratch, reused so the steady state does not allocate.
  std::vector<ParsedTag> tags_;
  std::vector<uint32_t> field_index_;
  std::vector<uint32_t> pending_;  // positions (in the line) of fields new to their table
  std::vector<index::TagRef> tag_refs_;
  std::string canonical_;
  std::vector<storage::FieldValue> row_values_;
};

}  // namespace gnomon::server
