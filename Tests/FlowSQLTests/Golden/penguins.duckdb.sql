-- flow export --sql --dialect duckdb: 10 nodes.
-- Run it in the document's folder: paths are as the document wrote them.
SET TimeZone = 'UTC';
CREATE OR REPLACE TEMP VIEW "penguins" AS
  SELECT row_number() OVER () AS "__flow_row", "species", "island", CAST(trim("bill_length_mm") AS DOUBLE) AS "bill_length_mm", CAST(trim("bill_depth_mm") AS DOUBLE) AS "bill_depth_mm", CAST(trim("flipper_length_mm") AS BIGINT) AS "flipper_length_mm", CAST(trim("body_mass_g") AS BIGINT) AS "body_mass_g", "sex", CAST(trim("year") AS BIGINT) AS "year" FROM read_csv('penguins.csv', header = true, delim = ',', quote = '"', escape = '"', auto_detect = false, all_varchar = true, allow_quoted_nulls = false, nullstr = ['', 'NA', 'N/A', 'NaN', 'null'], columns = {'species': 'VARCHAR', 'island': 'VARCHAR', 'bill_length_mm': 'VARCHAR', 'bill_depth_mm': 'VARCHAR', 'flipper_length_mm': 'VARCHAR', 'body_mass_g': 'VARCHAR', 'sex': 'VARCHAR', 'year': 'VARCHAR'});
CREATE OR REPLACE TEMP VIEW "clean" AS
  SELECT "__flow_row", "species", "island", "sex", "bill_length_mm", "flipper_length_mm", "body_mass_g" AS "mass_g" FROM "penguins";
CREATE OR REPLACE TEMP VIEW "measured" AS
  SELECT * FROM "clean" WHERE ((NOT ("mass_g" IS NULL)) AND (NOT ("sex" IS NULL)));
CREATE OR REPLACE TEMP VIEW "withKg" AS
  SELECT "__flow_row", "species", "island", "sex", "bill_length_mm", "flipper_length_mm", "mass_g", (CAST("mass_g" AS DOUBLE) / NULLIF(CAST(1000.0E0 AS DOUBLE), 0)) AS "mass_kg", CASE WHEN ("mass_g" >= 4500::BIGINT) THEN 1::BIGINT ELSE 0::BIGINT END AS "heavy" FROM "measured";
CREATE OR REPLACE TEMP VIEW "groups" AS
  SELECT min("__flow_row") AS "__flow_row", "species", "island", count(*) AS "birds", CAST(sum("heavy") AS BIGINT) AS "heavy_birds", favg(CAST("mass_kg" AS DOUBLE)) AS "mean_mass_kg", min("mass_g") AS "lightest_g", max("mass_g") AS "heaviest_g", max("flipper_length_mm") AS "max_flipper_mm", favg(CAST("bill_length_mm" AS DOUBLE)) AS "mean_bill_mm" FROM "withKg" GROUP BY "species", "island";
CREATE OR REPLACE TEMP VIEW "names" AS
  SELECT row_number() OVER () AS "__flow_row", "species", "scientific_name" FROM read_json('species.json', format = 'array', columns = {'species': 'VARCHAR', 'scientific_name': 'VARCHAR'});
CREATE OR REPLACE TEMP VIEW "named" AS
  SELECT row_number() OVER (ORDER BY "l"."__flow_row", "r"."__flow_row") AS "__flow_row", "l"."species", "l"."island", "l"."birds", "l"."heavy_birds", "l"."mean_mass_kg", "l"."lightest_g", "l"."heaviest_g", "l"."max_flipper_mm", "l"."mean_bill_mm", "r"."scientific_name" FROM "groups" AS "l" LEFT JOIN "names" AS "r" ON "l"."species" = "r"."species";
CREATE OR REPLACE TEMP VIEW "ordered" AS
  SELECT row_number() OVER (ORDER BY "species" ASC NULLS LAST, "birds" DESC NULLS LAST, "__flow_row") AS "__flow_row", "species", "island", "birds", "heavy_birds", "mean_mass_kg", "lightest_g", "heaviest_g", "max_flipper_mm", "mean_bill_mm", "scientific_name" FROM "named";
-- saveJSON
COPY (SELECT "species", "island", "birds", "heavy_birds", "mean_mass_kg", "lightest_g", "heaviest_g", "max_flipper_mm", "mean_bill_mm", "scientific_name" FROM "ordered" ORDER BY "__flow_row") TO 'output/summary.json' (FORMAT JSON, ARRAY true);
-- saveCSV
COPY (SELECT "species", "island", "birds", "heavy_birds", "mean_mass_kg", "lightest_g", "heaviest_g", "max_flipper_mm", "mean_bill_mm", "scientific_name" FROM "ordered" ORDER BY "__flow_row") TO 'output/summary.csv' (FORMAT CSV, HEADER true, DELIMITER ',');
