-- The x402 settlement index: USDC Transfer logs to the publisher registry's wallets, read from the chain past a
-- confirmation depth. Amounts are integers in the token's base units (6 decimals for USDC), never floats.
CREATE TABLE IF NOT EXISTS x402_settlements (
  chain_id     integer      NOT NULL CHECK (chain_id > 0),
  block_number bigint       NOT NULL CHECK (block_number >= 0),
  block_hash   text         NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  block_time   timestamptz  NOT NULL,
  tx_hash      text         NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index    integer      NOT NULL CHECK (log_index >= 0),
  token        text         NOT NULL CHECK (token ~ '^0x[0-9a-f]{40}$'),
  from_address text         NOT NULL CHECK (from_address ~ '^0x[0-9a-f]{40}$'),
  to_address   text         NOT NULL CHECK (to_address ~ '^0x[0-9a-f]{40}$'),
  amount_units numeric(78, 0) NOT NULL CHECK (amount_units >= 0),
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX IF NOT EXISTS x402_settlements_to_time ON x402_settlements (chain_id, to_address, block_time);
CREATE INDEX IF NOT EXISTS x402_settlements_block ON x402_settlements (chain_id, block_number);

-- Where the indexer stands per chain: the last indexed (final) block and its hash, to notice a reorg below it.
CREATE TABLE IF NOT EXISTS x402_index_cursor (
  chain_id     integer     PRIMARY KEY CHECK (chain_id > 0),
  block_number bigint      NOT NULL CHECK (block_number >= 0),
  block_hash   text        NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
