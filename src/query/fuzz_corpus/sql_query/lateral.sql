SELECT h.hostname, l.u FROM (SELECT DISTINCT hostname FROM cpu) h LEFT JOIN LATERAL (SELECT u, time FROM cpu c WHERE c.hostname = h.hostname ORDER BY time DESC LIMIT 2 OFFSET 1) l ON l.u > 0
