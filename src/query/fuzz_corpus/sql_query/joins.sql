SELECT a.hostname, b.region, count(*) FROM cpu a LEFT JOIN cpu b ON a.hostname = b.hostname AND a.time = b.time AND b.f > 1 WHERE a.u > 3 GROUP BY 1, 2 ORDER BY 1
