
        WITH cpu_avg AS (
          SELECT time_bucket('3600 seconds', time) as hour, tags_id,
          avg(usage_user) as mean_usage_user
          FROM cpu
          WHERE time >= '2023-06-11 07:47:52.646325 +0000' AND time < '2023-06-11 19:47:52.646325 +0000'
          GROUP BY 1, 2
        )
        SELECT hour, tags.hostname, mean_usage_user
        FROM cpu_avg
        JOIN tags ON cpu_avg.tags_id = tags.id
        ORDER BY hour, tags.hostname
