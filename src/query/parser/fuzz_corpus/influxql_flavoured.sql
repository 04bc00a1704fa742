SELECT "elapsed" 
		INTO "random_measure2_1" 
		FROM (SELECT difference("difka"), elapsed("difka", 1m) 
		 FROM (SELECT floor(mean("velocity")/10)/floor(mean("velocity")/10) AS "mv" 
		    FROM "readings" 
		    WHERE "name"!='' AND time > '2023-06-11T00:00:00Z' AND time < '2023-06-12T00:00:01Z' 
		    GROUP BY time(10m), "name" fill(0)) 
		 GROUP BY "name") 
		WHERE "difference" = -2 
		GROUP BY "name"; 
		SELECT mean("elapsed") FROM "random_measure2_1" GROUP BY time(1d),"name"
