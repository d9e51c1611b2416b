-- Payments that arrived but were not credited and wait for a person: today, a payment from a wallet found on
-- the sanctions screening list at confirm time. The quote is consumed with it, so the transaction cannot be
-- confirmed again; whoever reviews it decides on a refund.
CREATE TABLE payment_reviews (
  tx_hash       TEXT PRIMARY KEY CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  quote_nonce   TEXT NOT NULL UNIQUE REFERENCES payment_quotes (nonce),
  sender_wallet TEXT NOT NULL CHECK (sender_wallet ~ '^0x[0-9a-f]{40}$'),
  amount_units  BIGINT NOT NULL CHECK (amount_units > 0),
  reason        TEXT NOT NULL CHECK (reason IN ('sanctions_list')),
  list_source   TEXT NOT NULL,
  list_date     TEXT,
  block_number  BIGINT NOT NULL,
  recorded_at   TIMESTAMPTZ NOT NULL,
  resolved_at   TIMESTAMPTZ,
  resolution    TEXT
);
