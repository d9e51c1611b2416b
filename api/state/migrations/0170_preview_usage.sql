-- Free preview quotas: calls per UTC day, client and preview route, counted here so every server process
-- shares them. The client is a keyed hash (HMAC-SHA256, 64 hex characters) of its address, never the address.
-- A call increments its row with one INSERT … ON CONFLICT DO UPDATE … WHERE count < limit; rows of past days
-- are pruned by the previews housekeeping (the key starts with the day).
CREATE TABLE IF NOT EXISTS preview_usage (
  day     date    NOT NULL,
  ip_hash text    NOT NULL CHECK (ip_hash ~ '^[0-9a-f]{64}$'),
  route   text    NOT NULL CHECK (char_length(route) BETWEEN 1 AND 200),
  count   integer NOT NULL CHECK (count >= 1),
  PRIMARY KEY (day, ip_hash, route)
);

-- The key of that hash: 32 random bytes written once by the first process that needs it, read by all.
CREATE TABLE IF NOT EXISTS preview_settings (
  id          boolean PRIMARY KEY DEFAULT true CHECK (id),
  ip_hash_key bytea   NOT NULL CHECK (octet_length(ip_hash_key) = 32)
);
