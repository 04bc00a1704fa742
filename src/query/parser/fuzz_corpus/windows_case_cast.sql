/* block /* nested */ comment */ SELECT tags_id, lead(x) OVER (PARTITION BY tags_id ORDER BY t) AS stop, -- line
  CASE WHEN a BETWEEN 1 AND 2 THEN 'it''s' WHEN b IS NOT NULL THEN "Q"::double precision ELSE -1.5e3 END,
  CAST(v AS varchar(10)), x NOT LIKE 'a%', y NOT IN (1, 2, 3), count(DISTINCT z), count(*), -a % 3 ^ 2,
  INTERVAL '1 hour 30 minutes', interval '1' hour, now() - INTERVAL '5 minutes', TIMESTAMP '2023-06-11 00:00:00'
FROM (SELECT * FROM cpu) AS s WHERE NOT EXISTS (SELECT 1) GROUP BY 1 HAVING sum(x) > 0
ORDER BY 1 DESC NULLS LAST, 2 LIMIT 10 OFFSET 5;
