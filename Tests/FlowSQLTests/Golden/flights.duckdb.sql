-- flow export --sql --dialect duckdb: 5 nodes.
-- Run it in the document's folder: paths are as the document wrote them.
SET TimeZone = 'UTC';
CREATE OR REPLACE TEMP VIEW "flights" AS
  SELECT row_number() OVER () AS "__flow_row", CAST(trim("year") AS BIGINT) AS "year", CAST(trim("month") AS BIGINT) AS "month", CAST(trim("day") AS BIGINT) AS "day", CAST(trim("dep_time") AS BIGINT) AS "dep_time", CAST(trim("sched_dep_time") AS BIGINT) AS "sched_dep_time", CAST(trim("dep_delay") AS BIGINT) AS "dep_delay", CAST(trim("arr_time") AS BIGINT) AS "arr_time", CAST(trim("sched_arr_time") AS BIGINT) AS "sched_arr_time", CAST(trim("arr_delay") AS BIGINT) AS "arr_delay", "carrier", CAST(trim("flight") AS BIGINT) AS "flight", "tailnum", "origin", "dest", CAST(trim("air_time") AS BIGINT) AS "air_time", CAST(trim("distance") AS BIGINT) AS "distance", CAST(trim("hour") AS BIGINT) AS "hour", CAST(trim("minute") AS BIGINT) AS "minute", "time_hour" FROM read_csv('flights.csv', header = true, delim = ',', quote = '"', escape = '"', auto_detect = false, all_varchar = true, allow_quoted_nulls = false, nullstr = ['', 'NA', 'N/A', 'NaN', 'null'], columns = {'year': 'VARCHAR', 'month': 'VARCHAR', 'day': 'VARCHAR', 'dep_time': 'VARCHAR', 'sched_dep_time': 'VARCHAR', 'dep_delay': 'VARCHAR', 'arr_time': 'VARCHAR', 'sched_arr_time': 'VARCHAR', 'arr_delay': 'VARCHAR', 'carrier': 'VARCHAR', 'flight': 'VARCHAR', 'tailnum': 'VARCHAR', 'origin': 'VARCHAR', 'dest': 'VARCHAR', 'air_time': 'VARCHAR', 'distance': 'VARCHAR', 'hour': 'VARCHAR', 'minute': 'VARCHAR', 'time_hour': 'VARCHAR'});
CREATE OR REPLACE TEMP VIEW "flown" AS
  SELECT * FROM "flights" WHERE (NOT ("dep_time" IS NULL));
CREATE OR REPLACE TEMP VIEW "groups" AS
  SELECT min("__flow_row") AS "__flow_row", "origin", "carrier", count(*) AS "flights", favg(CAST("arr_delay" AS DOUBLE)) AS "mean_arr_delay", CAST(sum("distance") AS BIGINT) AS "total_distance" FROM "flown" GROUP BY "origin", "carrier";
CREATE OR REPLACE TEMP VIEW "ranked" AS
  SELECT row_number() OVER (ORDER BY "flights" DESC NULLS LAST, "__flow_row") AS "__flow_row", "origin", "carrier", "flights", "mean_arr_delay", "total_distance" FROM "groups";
-- save
COPY (SELECT "origin", "carrier", "flights", "mean_arr_delay", "total_distance" FROM "ranked" ORDER BY "__flow_row") TO 'summary.csv' (FORMAT CSV, HEADER true, DELIMITER ',');
