-- no-transaction
-- Finding the counted games of a month (see the previous migration), built concurrently:
-- `stat_counted` has a row per stored complete game.
CREATE INDEX CONCURRENTLY IF NOT EXISTS stat_counted_month ON stat_counted (month);
