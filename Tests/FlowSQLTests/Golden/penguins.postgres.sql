-- flow export --sql --dialect postgres: 10 nodes.
-- Run it in the document's folder: paths are as the document wrote them.
SET TIME ZONE 'UTC';
SET standard_conforming_strings = on;
DROP TABLE IF EXISTS "penguins~source" CASCADE;
CREATE TEMPORARY TABLE "penguins~source" ("__flow_row" BIGSERIAL, "species" TEXT, "island" TEXT, "bill_length_mm" TEXT, "bill_depth_mm" TEXT, "flipper_length_mm" TEXT, "body_mass_g" TEXT, "sex" TEXT, "year" TEXT);
\copy "penguins~source" ("species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "sex", "year") FROM 'penguins.csv' WITH (FORMAT csv, HEADER true, DELIMITER ',', NULL '')
CREATE OR REPLACE TEMP VIEW "penguins" AS
  SELECT "__flow_row", CASE WHEN "species" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "species" END AS "species", CASE WHEN "island" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "island" END AS "island", CAST(trim(CASE WHEN "bill_length_mm" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "bill_length_mm" END) AS DOUBLE PRECISION) AS "bill_length_mm", CAST(trim(CASE WHEN "bill_depth_mm" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "bill_depth_mm" END) AS DOUBLE PRECISION) AS "bill_depth_mm", CAST(trim(CASE WHEN "flipper_length_mm" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "flipper_length_mm" END) AS BIGINT) AS "flipper_length_mm", CAST(trim(CASE WHEN "body_mass_g" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "body_mass_g" END) AS BIGINT) AS "body_mass_g", CASE WHEN "sex" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "sex" END AS "sex", CAST(trim(CASE WHEN "year" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "year" END) AS BIGINT) AS "year" FROM "penguins~source";
CREATE OR REPLACE TEMP VIEW "clean" AS
  SELECT "__flow_row", "species", "island", "sex", "bill_length_mm", "flipper_length_mm", "body_mass_g" AS "mass_g" FROM "penguins";
CREATE OR REPLACE TEMP VIEW "measured" AS
  SELECT * FROM "clean" WHERE ((NOT ("mass_g" IS NULL)) AND (NOT ("sex" IS NULL)));
CREATE OR REPLACE TEMP VIEW "withKg" AS
  SELECT "__flow_row", "species", "island", "sex", "bill_length_mm", "flipper_length_mm", "mass_g", (CAST("mass_g" AS DOUBLE PRECISION) / NULLIF(CAST(1000.0E0 AS DOUBLE PRECISION), 0)) AS "mass_kg", CASE WHEN ("mass_g" >= 4500::BIGINT) THEN 1::BIGINT ELSE 0::BIGINT END AS "heavy" FROM "measured";
CREATE OR REPLACE TEMP VIEW "groups" AS
  SELECT min("__flow_row") AS "__flow_row", "species", "island", count(*) AS "birds", CAST(sum("heavy") AS BIGINT) AS "heavy_birds", CAST(avg(CAST("mass_kg" AS NUMERIC)) AS DOUBLE PRECISION) AS "mean_mass_kg", min("mass_g") AS "lightest_g", max("mass_g") AS "heaviest_g", max("flipper_length_mm") AS "max_flipper_mm", CAST(avg(CAST("bill_length_mm" AS NUMERIC)) AS DOUBLE PRECISION) AS "mean_bill_mm" FROM "withKg" GROUP BY "species", "island";
-- the table "names~source" holds the rows of species.json, their file order in "__flow_row"
CREATE OR REPLACE TEMP VIEW "names" AS
  SELECT "__flow_row", "species", "scientific_name" FROM "names~source";
CREATE OR REPLACE TEMP VIEW "named" AS
  SELECT row_number() OVER (ORDER BY "l"."__flow_row", "r"."__flow_row") AS "__flow_row", "l"."species", "l"."island", "l"."birds", "l"."heavy_birds", "l"."mean_mass_kg", "l"."lightest_g", "l"."heaviest_g", "l"."max_flipper_mm", "l"."mean_bill_mm", "r"."scientific_name" FROM "groups" AS "l" LEFT JOIN "names" AS "r" ON "l"."species" = "r"."species";
CREATE OR REPLACE TEMP VIEW "ordered" AS
  SELECT row_number() OVER (ORDER BY "species" COLLATE "C" ASC NULLS LAST, "birds" DESC NULLS LAST, "__flow_row") AS "__flow_row", "species", "island", "birds", "heavy_birds", "mean_mass_kg", "lightest_g", "heaviest_g", "max_flipper_mm", "mean_bill_mm", "scientific_name" FROM "named";
-- saveJSON
-- writes output/summary.json: save this result there
SELECT "species", "island", "birds", "heavy_birds", "mean_mass_kg", "lightest_g", "heaviest_g", "max_flipper_mm", "mean_bill_mm", "scientific_name" FROM "ordered" ORDER BY "__flow_row";
-- saveCSV
-- writes output/summary.csv: save this result there
SELECT "species", "island", "birds", "heavy_birds", "mean_mass_kg", "lightest_g", "heaviest_g", "max_flipper_mm", "mean_bill_mm", "scientific_name" FROM "ordered" ORDER BY "__flow_row";
