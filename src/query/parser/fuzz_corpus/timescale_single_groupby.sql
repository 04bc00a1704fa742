SELECT time_bucket('60 seconds', time) AS minute,
        max(usage_user) as max_usage_user
        FROM cpu
        WHERE tags_id IN (SELECT id FROM tags WHERE hostname IN ('host_49')) AND time >= '2023-06-11 02:17:08.646325 +0000' AND time < '2023-06-11 03:17:08.646325 +0000'
        GROUP BY minute ORDER BY minute ASC
