-- Daily totals of the settlement index per chain, token and payee wallet (UTC days), kept by the indexer in the
-- same transaction as the settlements they sum, so the daily series and long windows never scan a year of rows.
-- Zero-value transfers are not payments and are left out, as the reads leave them out.
CREATE TABLE IF NOT EXISTS x402_settlements_daily (
  chain_id     integer        NOT NULL CHECK (chain_id > 0),
  token        text           NOT NULL CHECK (token ~ '^0x[0-9a-f]{40}$'),
  to_address   text           NOT NULL CHECK (to_address ~ '^0x[0-9a-f]{40}$'),
  day          date           NOT NULL,
  volume_units numeric(78, 0) NOT NULL CHECK (volume_units > 0),
  count        integer        NOT NULL CHECK (count > 0),
  PRIMARY KEY (chain_id, token, to_address, day)
);
INSERT INTO x402_settlements_daily (chain_id, token, to_address, day, volume_units, count)
SELECT chain_id, token, to_address, (block_time AT TIME ZONE 'UTC')::date, sum(amount_units), count(*)
FROM x402_settlements WHERE amount_units > 0 GROUP BY 1, 2, 3, 4
ON CONFLICT DO NOTHING;
