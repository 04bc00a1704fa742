SELECT * FROM (SELECT hostname, max(u) AS m FROM cpu GROUP BY hostname) x FULL JOIN (SELECT hostname, min(f) AS n FROM cpu WHERE region IS NULL GROUP BY hostname) y USING (hostname) ORDER BY 1
