-- Scratch rows of the readiness probe: after a write failed because the disk was full, `/readyz`
-- writes (and deletes) a 1 MiB row here to learn whether the store can write again. Always
-- empty between probes.
CREATE TABLE store_probes (
    id   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    data BYTEA NOT NULL
);
