SELECT a.time, a.u, b.f FROM cpu a ASOF LEFT JOIN cpu b ON a.hostname = b.hostname AND a.time > b.time + INTERVAL '5 seconds' ORDER BY 1 LIMIT 10
