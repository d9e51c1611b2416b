-- Standard x402 `exact` payments (an EIP-3009 transferWithAuthorization signed by the payer): one row per signed
-- authorization, claimed before the call runs (pending) so it is used once, settled on chain only when the call
-- is charged, and deleted when the call ends uncharged (nothing moved; the payer may use it again).
CREATE TABLE IF NOT EXISTS x402_exact_payments (
  chain_id      integer     NOT NULL CHECK (chain_id > 0),
  payer         text        NOT NULL CHECK (payer ~ '^0x[0-9a-f]{40}$'),
  nonce         text        NOT NULL CHECK (nonce ~ '^0x[0-9a-f]{64}$'),
  endpoint      text        NOT NULL,
  amount_units  bigint      NOT NULL CHECK (amount_units > 0),
  status        text        NOT NULL CHECK (status IN ('pending', 'settled')),
  tx_hash       text        UNIQUE CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  token_id      text        REFERENCES tokens (id),
  claimed_at    timestamptz NOT NULL DEFAULT now(),
  settled_at    timestamptz,
  PRIMARY KEY (chain_id, payer, nonce)
);
