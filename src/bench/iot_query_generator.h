// `gnomon bench generate-queries --use-case iot`: TSBS's 13 IoT query types with exactly TSBS's
// random choices (fleet, trucks, windows; spec section 5.5), in two forms:
//  * kSql: Gnomon SQL with the tags kept in the table (TimescaleDB's semantics: the joins on
//    `tags` become the table's own tag columns; windows, CTEs and HAVING where TimescaleDB uses
//    them; window bounds in TimescaleDB's microsecond literal, `>=` / `<`);
//  * kInflux: the InfluxQL text TSBS's influx builder emits, byte for byte.
#pragma once

#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/bench/query_generator.h"

namespace gnomon::bench {

enum class IotQueryFormat { kSql, kInflux };

// The 13 IoT query types, in TSBS's registration order.
const std::vector<std::string>& IotQueryTypes();

// `config.scale` is the number of trucks; `config.time_column` is used by the SQL form.
Result<std::vector<GeneratedQuery>> GenerateIotQueries(const QueryGenConfig& config, IotQueryFormat format);

}  // namespace gnomon::bench
