-- What the settlement index covers: the time of the block the cursor stands on (the index is as fresh as that
-- block) and the first block it read (settlements before it were never looked for: the index is forward-only).
ALTER TABLE x402_index_cursor ADD COLUMN IF NOT EXISTS block_time timestamptz;
ALTER TABLE x402_index_cursor ADD COLUMN IF NOT EXISTS first_block bigint CHECK (first_block >= 0);
ALTER TABLE x402_index_cursor ADD COLUMN IF NOT EXISTS first_block_time timestamptz;
