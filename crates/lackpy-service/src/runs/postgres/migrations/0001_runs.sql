-- Version 1: run journals, one row per run and one per journal line.
CREATE TABLE lackpy_runs (
    run_id     text PRIMARY KEY,
    -- The key of the session advisory lock a process holds the run by.
    lock_key   bigint NOT NULL,
    -- Seconds since the Unix epoch (the writer's clock).
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    -- The journal's size in bytes, lines and newlines counted.
    bytes      bigint NOT NULL
);

CREATE TABLE lackpy_run_lines (
    run_id text NOT NULL,
    seq    integer NOT NULL,
    line   text NOT NULL,
    PRIMARY KEY (run_id, seq)
);
