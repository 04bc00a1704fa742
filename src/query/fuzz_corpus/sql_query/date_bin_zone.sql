SELECT date_bin(INTERVAL '1 day', time, TIMESTAMP '1970-01-01T00:00:00Z', 'Asia/Kolkata') AS d, count(*) FROM cpu GROUP BY d
