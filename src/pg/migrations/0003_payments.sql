-- Version 3: the guarded payment's requests (issue 30 §1), so that
-- instances sharing the database submit a payment request at most once.

-- One row per request (a request id of a principal; '' is the local
-- principal). `created` is the request as created, before anything was
-- sent (the embedded ledger's `created` event without its tag);
-- `attempted_at` is set, once, before the submission; `receipt` is the last
-- outcome observed, and `settled` says it is final (succeeded or failed).
CREATE TABLE asasked_payments (
    principal text NOT NULL,
    request_id text NOT NULL,
    created text NOT NULL,
    attempted_at text,
    receipt text,
    settled boolean NOT NULL DEFAULT false,
    committed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (principal, request_id)
);

-- What a row may become: its request never changes, its attempt is marked
-- once and never unmarked, a settled outcome is never replaced, and no row
-- is removed. The ledger's conditional updates never try any of these; the
-- trigger makes the rules hold for every writer.
CREATE FUNCTION asasked_payments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'asasked_payments keeps every request: DELETE refused';
    END IF;
    IF NEW.principal <> OLD.principal OR NEW.request_id <> OLD.request_id OR NEW.created <> OLD.created THEN
        RAISE EXCEPTION 'a payment request is never changed: % refused', TG_OP;
    END IF;
    IF OLD.attempted_at IS NOT NULL AND NEW.attempted_at IS DISTINCT FROM OLD.attempted_at THEN
        RAISE EXCEPTION 'a payment request is marked attempted once';
    END IF;
    IF OLD.settled AND (NOT NEW.settled OR NEW.receipt IS DISTINCT FROM OLD.receipt) THEN
        RAISE EXCEPTION 'a settled payment outcome is never replaced';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER asasked_payments_guard
BEFORE UPDATE OR DELETE ON asasked_payments
FOR EACH ROW EXECUTE FUNCTION asasked_payments_guard();
