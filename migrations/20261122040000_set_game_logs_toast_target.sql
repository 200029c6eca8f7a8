-- Stored logs are gzip-compressed already (about 2 KB for a 4-player game): keep them in the
-- row instead of moving every one over PostgreSQL's default threshold of about 2 KB to the TOAST
-- table, where the server first tried to compress them again (pglz, in vain) and then wrote a
-- second heap row and index entry per log. Rows up to the page's limit stay inline; larger logs
-- are still moved out of line as before. Existing rows are unchanged.
ALTER TABLE game_logs SET (toast_tuple_target = 8160);
