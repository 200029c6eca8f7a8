-- SQLite twin of ../20261201090400_create_stat_counted_month_index.sql.
CREATE INDEX IF NOT EXISTS stat_counted_month ON stat_counted (month);
