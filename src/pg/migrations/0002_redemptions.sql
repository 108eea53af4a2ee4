-- Version 2: redemptions of proceed verdicts (issue 30 §2), at most one
-- successful redemption per verdict across every instance.

-- One row per request (an Idempotency-Key of a principal; '' is the local
-- principal). `entry` is the outcome as the embedded ledger writes it.
CREATE TABLE asasked_redemptions (
    principal text NOT NULL,
    request_id text NOT NULL,
    record_id text,
    succeeded boolean NOT NULL,
    entry text NOT NULL,
    committed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (principal, request_id)
);

-- A verdict is redeemed at most once: a second successful row for one
-- record cannot commit, whichever instance inserts it.
CREATE UNIQUE INDEX asasked_redemptions_once ON asasked_redemptions (record_id) WHERE succeeded;

-- A recorded outcome is never changed or removed (replays return it).
CREATE FUNCTION asasked_redemptions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'asasked_redemptions is append-only: % refused', TG_OP;
END;
$$;
CREATE TRIGGER asasked_redemptions_append_only
BEFORE UPDATE OR DELETE ON asasked_redemptions
FOR EACH ROW EXECUTE FUNCTION asasked_redemptions_append_only();
