-- Payments: credit quotes, verified on-chain USDC payments, the first-payment bonus, and trial grants.
-- Money is integers: USDC amounts in base units (6 decimals), credits as integers. Wallets and tx hashes are
-- stored lower case, so every UNIQUE below is case-insensitive by construction.

CREATE TABLE payment_quotes (
  nonce          TEXT PRIMARY KEY CHECK (nonce ~ '^[0-9a-f]{32}$'),   -- the memo handed to the client
  sender_wallet  TEXT NOT NULL CHECK (sender_wallet ~ '^0x[0-9a-f]{40}$'),
  amount_units   BIGINT NOT NULL CHECK (amount_units BETWEEN 500000 AND 10000000000),
  credits        BIGINT NOT NULL CHECK (credits > 0),
  rate           TEXT NOT NULL CHECK (rate IN ('bundle', 'quote')),
  proven         BOOLEAN NOT NULL DEFAULT false,
  -- the proof signature (lower case), single use: a captured proof cannot mint a second proven quote
  proof_signature TEXT UNIQUE,
  created_at     TIMESTAMPTZ NOT NULL,
  expires_at     TIMESTAMPTZ NOT NULL,
  consumed_at    TIMESTAMPTZ,
  tx_hash        TEXT,
  CHECK (proven = (proof_signature IS NOT NULL)),
  CHECK ((consumed_at IS NULL) = (tx_hash IS NULL))
);
CREATE INDEX payment_quotes_proven_idx ON payment_quotes (sender_wallet, expires_at) WHERE proven AND consumed_at IS NULL;

CREATE TABLE payments (
  tx_hash        TEXT PRIMARY KEY CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),  -- one tx is accepted once
  quote_nonce    TEXT NOT NULL UNIQUE REFERENCES payment_quotes (nonce),
  sender_wallet  TEXT NOT NULL CHECK (sender_wallet ~ '^0x[0-9a-f]{40}$'),
  amount_units   BIGINT NOT NULL CHECK (amount_units > 0),
  credits        BIGINT NOT NULL CHECK (credits >= 0),
  rate           TEXT NOT NULL CHECK (rate IN ('base', 'bundle', 'quote')),
  token_id       TEXT NOT NULL REFERENCES tokens (id),
  block_number   BIGINT NOT NULL,
  block_time     TIMESTAMPTZ NOT NULL,
  confirmed_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX payments_sender_idx ON payments (sender_wallet);

-- One row per wallet that ever received the first-payment bonus; inserted in the payment's transaction, so
-- concurrent confirms by one new wallet end with exactly one bonus.
CREATE TABLE first_payment_bonuses (
  wallet     TEXT PRIMARY KEY CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
  tx_hash    TEXT NOT NULL UNIQUE REFERENCES payments (tx_hash),
  token_id   TEXT NOT NULL REFERENCES tokens (id),
  credits    BIGINT NOT NULL CHECK (credits > 0),
  granted_at TIMESTAMPTZ NOT NULL
);

-- One trial grant per wallet (lower case), each signed request nonce usable once.
CREATE TABLE trial_grants (
  wallet     TEXT PRIMARY KEY CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
  nonce      TEXT NOT NULL UNIQUE CHECK (nonce ~ '^[0-9a-f]{16}$'),
  token_id   TEXT NOT NULL REFERENCES tokens (id),
  credits    BIGINT NOT NULL CHECK (credits > 0),
  signed_at  TIMESTAMPTZ NOT NULL,
  granted_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
