-- flow export --sql --dialect spark: 10 nodes.
-- Run it in the document's folder: paths are as the document wrote them.
SET spark.sql.ansi.enabled = true;
SET spark.sql.session.timeZone = UTC;
CREATE OR REPLACE TEMPORARY VIEW `penguins~1` (`species` STRING, `island` STRING, `bill_length_mm` STRING, `bill_depth_mm` STRING, `flipper_length_mm` STRING, `body_mass_g` STRING, `sex` STRING, `year` STRING) USING csv OPTIONS (path 'penguins.csv', header 'true', sep ',', quote '"', escape '"', multiLine 'true', nullValue '', enforceSchema 'true', ignoreLeadingWhiteSpace 'false', ignoreTrailingWhiteSpace 'false');
CREATE OR REPLACE TEMPORARY VIEW `penguins` AS
  SELECT monotonically_increasing_id() AS `__flow_row`, CASE WHEN `species` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `species` END AS `species`, CASE WHEN `island` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `island` END AS `island`, CAST(trim(CASE WHEN `bill_length_mm` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `bill_length_mm` END) AS DOUBLE) AS `bill_length_mm`, CAST(trim(CASE WHEN `bill_depth_mm` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `bill_depth_mm` END) AS DOUBLE) AS `bill_depth_mm`, CAST(trim(CASE WHEN `flipper_length_mm` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `flipper_length_mm` END) AS BIGINT) AS `flipper_length_mm`, CAST(trim(CASE WHEN `body_mass_g` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `body_mass_g` END) AS BIGINT) AS `body_mass_g`, CASE WHEN `sex` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `sex` END AS `sex`, CAST(trim(CASE WHEN `year` IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE `year` END) AS BIGINT) AS `year` FROM `penguins~1`;
CREATE OR REPLACE TEMPORARY VIEW `clean` AS
  SELECT `__flow_row`, `species`, `island`, `sex`, `bill_length_mm`, `flipper_length_mm`, `body_mass_g` AS `mass_g` FROM `penguins`;
CREATE OR REPLACE TEMPORARY VIEW `measured` AS
  SELECT * FROM `clean` WHERE ((NOT (`mass_g` IS NULL)) AND (NOT (`sex` IS NULL)));
CREATE OR REPLACE TEMPORARY VIEW `withKg` AS
  SELECT `__flow_row`, `species`, `island`, `sex`, `bill_length_mm`, `flipper_length_mm`, `mass_g`, (CAST(`mass_g` AS DOUBLE) / NULLIF(1000.0E0, 0)) AS `mass_kg`, CASE WHEN (`mass_g` >= 4500L) THEN 1L ELSE 0L END AS `heavy` FROM `measured`;
CREATE OR REPLACE TEMPORARY VIEW `groups` AS
  SELECT min(`__flow_row`) AS `__flow_row`, `species`, `island`, count(*) AS `birds`, CAST(sum(`heavy`) AS BIGINT) AS `heavy_birds`, avg(CAST(`mass_kg` AS DOUBLE)) AS `mean_mass_kg`, min(`mass_g`) AS `lightest_g`, max(`mass_g`) AS `heaviest_g`, max(`flipper_length_mm`) AS `max_flipper_mm`, avg(CAST(`bill_length_mm` AS DOUBLE)) AS `mean_bill_mm` FROM `withKg` GROUP BY `species`, `island`;
CREATE OR REPLACE TEMPORARY VIEW `names~2` (`species` STRING, `scientific_name` STRING) USING json OPTIONS (path 'species.json', multiLine 'true');
CREATE OR REPLACE TEMPORARY VIEW `names` AS
  SELECT monotonically_increasing_id() AS `__flow_row`, `species`, `scientific_name` FROM `names~2`;
CREATE OR REPLACE TEMPORARY VIEW `named` AS
  SELECT row_number() OVER (ORDER BY `l`.`__flow_row`, `r`.`__flow_row`) AS `__flow_row`, `l`.`species`, `l`.`island`, `l`.`birds`, `l`.`heavy_birds`, `l`.`mean_mass_kg`, `l`.`lightest_g`, `l`.`heaviest_g`, `l`.`max_flipper_mm`, `l`.`mean_bill_mm`, `r`.`scientific_name` FROM `groups` AS `l` LEFT JOIN `names` AS `r` ON `l`.`species` = `r`.`species`;
CREATE OR REPLACE TEMPORARY VIEW `ordered` AS
  SELECT row_number() OVER (ORDER BY `species` ASC NULLS LAST, `birds` DESC NULLS LAST, `__flow_row`) AS `__flow_row`, `species`, `island`, `birds`, `heavy_birds`, `mean_mass_kg`, `lightest_g`, `heaviest_g`, `max_flipper_mm`, `mean_bill_mm`, `scientific_name` FROM `named`;
-- saveJSON
INSERT OVERWRITE DIRECTORY 'output/summary.json' USING json
  SELECT `species`, `island`, `birds`, `heavy_birds`, `mean_mass_kg`, `lightest_g`, `heaviest_g`, `max_flipper_mm`, `mean_bill_mm`, `scientific_name` FROM `ordered` ORDER BY `__flow_row`;
-- saveCSV
INSERT OVERWRITE DIRECTORY 'output/summary.csv' USING csv OPTIONS (header 'true', sep ',')
  SELECT `species`, `island`, `birds`, `heavy_birds`, `mean_mass_kg`, `lightest_g`, `heaviest_g`, `max_flipper_mm`, `mean_bill_mm`, `scientific_name` FROM `ordered` ORDER BY `__flow_row`;
