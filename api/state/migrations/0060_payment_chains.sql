-- The chains this ledger has run payments on. A row for the local test chain (chain id 31337) means tokens and
-- credits may have been granted for test money; a live start refuses such a ledger while it holds tokens, so
-- test credits never become spendable on a real-money instance.
CREATE TABLE payment_chains (
  chain_id      INTEGER PRIMARY KEY CHECK (chain_id > 0),
  test_chain    BOOLEAN NOT NULL,
  first_used_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
