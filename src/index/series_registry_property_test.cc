// The registry against a brute-force model: random tag sets, random checkpoints and reopens;
// ids, tags, the inverted index and the key/value listings must all agree.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/index/index_test_util.h"
#include "src/index/series_registry.h"

namespace gnomon::index {
namespace {

using TagSet = std::map<std::string, std::string>;  // ordered by key: canonical

const std::vector<std::string> kKeys = {"a", "b", "host", "region", "zone"};
const std::vector<std::string> kValues = {"1", "2", "x", "eu", "us-west", "a"};

rc::Gen<TagSet> GenTagSet() {
  return rc::gen::map(rc::gen::container<std::vector<std::pair<int, int>>>(
                          rc::gen::pair(rc::gen::inRange<int>(0, static_cast<int>(kKeys.size())),
                                        rc::gen::inRange<int>(0, static_cast<int>(kValues.size())))),
                      [](const std::vector<std::pair<int, int>>& picks) {
                        TagSet set;
                        for (auto [k, v] : picks) set[kKeys[k]] = kValues[v];
                        return set;
                      });
}

std::vector<TagRef> ToRefs(const TagSet& set) {
  std::vector<TagRef> out;
  for (const auto& [k, v] : set) out.push_back({k, v});
  return out;
}

class RegistryModelTest : public IndexTestDir {};

TEST_F(RegistryModelTest, InvertedIndexMatchesBruteForce) {
  int run = 0;
  bool ok = rc::check("registry == model", [&] {
    std::string dir = port::JoinPath(dir_, "run" + std::to_string(run++));
    // op: 0..7 create a tag set, 8 checkpoint, 9 reopen
    auto ops = *rc::gen::container<std::vector<std::pair<int, TagSet>>>(
        rc::gen::pair(rc::gen::inRange(0, 10), GenTagSet()));
    auto reg = SeriesRegistry::Open(env_, dir);
    RC_ASSERT(reg.ok());
    std::unique_ptr<SeriesRegistry> r = std::move(reg).value();
    std::vector<TagSet> model;
    std::map<TagSet, SeriesId> ids;
    for (const auto& [op, set] : ops) {
      if (op == 8) {
        RC_ASSERT(r->Checkpoint().ok());
      } else if (op == 9) {
        if (*rc::gen::arbitrary<bool>()) RC_ASSERT(r->Sync().ok());
        r.reset();
        auto reopened = SeriesRegistry::Open(env_, dir);
        RC_ASSERT(reopened.ok());
        r = std::move(reopened).value();
      } else {
        bool created;
        auto id = r->GetOrCreate(ToRefs(set), &created);
        RC_ASSERT(id.ok());
        auto it = ids.find(set);
        if (it == ids.end()) {
          RC_ASSERT(created);
          RC_ASSERT(*id == model.size());
          ids[set] = *id;
          model.push_back(set);
        } else {
          RC_ASSERT(!created);
          RC_ASSERT(*id == it->second);
        }
      }
    }
    RC_ASSERT(r->size() == model.size());
    std::map<std::string, std::set<std::string>> values;
    for (SeriesId id = 0; id < model.size(); ++id) {
      std::vector<TagRef> got = r->Tags(id).ToVector();
      RC_ASSERT(got == ToRefs(model[id]));
      for (const std::string& k : kKeys) {
        auto it = model[id].find(k);
        RC_ASSERT(r->TagValue(id, k) == (it == model[id].end() ? "" : it->second));
      }
      RC_ASSERT(r->Find(ToRefs(model[id])) == std::optional<SeriesId>(id));
      for (const auto& [k, v] : model[id]) values[k].insert(v);
    }
    std::vector<std::string> keys;
    for (const auto& [k, vs] : values) keys.push_back(k);
    RC_ASSERT(r->TagKeys() == keys);
    for (const std::string& k : kKeys) {
      const auto& vs = values[k];
      RC_ASSERT(r->TagValues(k) == std::vector<std::string>(vs.begin(), vs.end()));
      for (const std::string& v : kValues) {
        std::vector<SeriesId> expected;
        for (SeriesId id = 0; id < model.size(); ++id) {
          auto it = model[id].find(k);
          if (it != model[id].end() && it->second == v) expected.push_back(id);
        }
        std::vector<SeriesId> got;
        r->AppendSeriesWithTag(k, v, &got);
        RC_ASSERT(got == expected);
        Roaring bitmap = r->SeriesWithTag(k, v);
        RC_ASSERT(bitmap.cardinality() == expected.size());
        for (SeriesId id : expected) RC_ASSERT(bitmap.contains(id));
      }
    }
  });
  EXPECT_TRUE(ok);
}

}  // namespace
}  // namespace gnomon::index
