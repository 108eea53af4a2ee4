-- Version 1: the evidence chain, its head and the shared facts cache.

-- One row: the last sealed record's seq and hash. An append locks it
-- (SELECT ... FOR UPDATE) in its transaction, so appends from every instance
-- extend one chain, one at a time, each from the head the previous commit left.
CREATE TABLE asasked_evidence_head (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    seq bigint NOT NULL,
    hash text NOT NULL
);
INSERT INTO asasked_evidence_head (singleton, seq, hash)
VALUES (true, 0, 'sha256:0000000000000000000000000000000000000000000000000000000000000000');

-- One row per sealed record. `line` is the record exactly as the embedded
-- JSON Lines log writes it (without the newline): it is what was hashed, so
-- `evidence verify` checks the same bytes whichever store holds them. The
-- other columns are what lookups and the link rules need.
CREATE TABLE asasked_evidence (
    seq bigint PRIMARY KEY,
    record_id text NOT NULL UNIQUE,
    -- A record is superseded at most once (UNIQUE), by a later record (FK).
    previous_record_id text UNIQUE REFERENCES asasked_evidence (record_id),
    attempt integer NOT NULL,
    request_sha256 bytea NOT NULL,
    line text NOT NULL,
    committed_at timestamptz NOT NULL DEFAULT now()
);

-- No acknowledged record is ever changed or removed.
CREATE FUNCTION asasked_evidence_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'asasked_evidence is append-only: % refused', TG_OP;
END;
$$;
CREATE TRIGGER asasked_evidence_append_only
BEFORE UPDATE OR DELETE ON asasked_evidence
FOR EACH ROW EXECUTE FUNCTION asasked_evidence_append_only();

-- Merged facts by a digest of (request, answers, today, extractor set,
-- required count, merge policy); pruned to the newest entries.
CREATE TABLE asasked_facts_cache (
    key text PRIMARY KEY,
    outcome text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX asasked_facts_cache_created_at ON asasked_facts_cache (created_at);
