-- Billing: Idempotency-Key records for premium calls. One row per (token, key); the first request claims
-- the key (state in_progress), its final answer is stored (state done) and replayed for 24 hours to the same
-- key with the same request hash. Breakers are in memory and have no table.
CREATE TABLE IF NOT EXISTS billing_idempotency (
  token_id        text        NOT NULL REFERENCES tokens (id),
  idem_key        text        NOT NULL CHECK (char_length(idem_key) BETWEEN 1 AND 200),
  request_hash    text        NOT NULL,
  endpoint        text        NOT NULL,
  state           text        NOT NULL CHECK (state IN ('in_progress', 'done')),
  response_status integer,
  -- The exact JSON bytes of the first answer, replayed as they were sent.
  response_body   text,
  created_at      timestamptz NOT NULL,
  completed_at    timestamptz,
  PRIMARY KEY (token_id, idem_key),
  CHECK (state = 'in_progress' OR (response_status IS NOT NULL AND response_body IS NOT NULL))
);

CREATE INDEX IF NOT EXISTS billing_idempotency_created_at ON billing_idempotency (created_at);
