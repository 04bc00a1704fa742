SELECT extract(epoch FROM age(max(time), min(time))), EXTRACT('dow' FROM time), date_part('isodow', time) FROM t WHERE extract(hour FROM time) > 3
