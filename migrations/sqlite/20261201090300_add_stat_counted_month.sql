-- SQLite twin of ../20261201090300_add_stat_counted_month.sql.
ALTER TABLE stat_counted ADD COLUMN month INTEGER;
