-- Core state: bearer tokens, the credit ledger, and held charges.
-- Invariant: for every token, tokens.balance = SUM(ledger.delta) of its rows. Balances change only in the
-- same statement or transaction that writes the ledger row explaining the change.

CREATE TABLE tokens (
  id              TEXT PRIMARY KEY,                       -- tok_<24 hex>
  token_hash      TEXT NOT NULL UNIQUE                    -- sha256 hex of the bearer token; the token itself is never stored
                  CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  kind            TEXT NOT NULL CHECK (kind IN ('paid', 'trial')),
  wallet          TEXT CHECK (wallet IS NULL OR wallet = lower(wallet)),
  balance         BIGINT NOT NULL DEFAULT 0 CHECK (balance >= 0),
  total_purchased BIGINT NOT NULL DEFAULT 0 CHECK (total_purchased >= 0),
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_used_at    TIMESTAMPTZ,
  expires_at      TIMESTAMPTZ                             -- trials expire; paid tokens never (NULL)
);
CREATE INDEX tokens_wallet_idx ON tokens (wallet) WHERE wallet IS NOT NULL;

CREATE TABLE ledger (
  id         BIGSERIAL PRIMARY KEY,
  token_id   TEXT NOT NULL REFERENCES tokens (id),
  delta      BIGINT NOT NULL CHECK (delta <> 0),
  reason     TEXT NOT NULL CHECK (reason IN ('purchase', 'bonus', 'trial', 'hold', 'release')),
  ref        TEXT NOT NULL,                               -- payment id, trial grant, or hold id
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- debits are holds; every other movement adds credits
  CHECK ((reason = 'hold') = (delta < 0))
);
CREATE INDEX ledger_token_idx ON ledger (token_id);
CREATE INDEX ledger_ref_idx ON ledger (ref);
-- a hold is debited once and released at most once
CREATE UNIQUE INDEX ledger_hold_once_idx ON ledger (ref, reason) WHERE reason IN ('hold', 'release');

CREATE TABLE holds (
  id            TEXT PRIMARY KEY,                         -- hold_<24 hex>
  token_id      TEXT NOT NULL REFERENCES tokens (id),
  cost          BIGINT NOT NULL CHECK (cost > 0),
  endpoint      TEXT NOT NULL,
  request_hash  TEXT NOT NULL,
  status        TEXT NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'committed', 'released')),
  reason        TEXT,                                     -- why a hold was released
  response_hash TEXT,
  receipt_id    TEXT,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  settled_at    TIMESTAMPTZ,
  CHECK ((status = 'held') = (settled_at IS NULL))
);
CREATE INDEX holds_token_idx ON holds (token_id);
CREATE INDEX holds_open_idx ON holds (created_at) WHERE status = 'held';
