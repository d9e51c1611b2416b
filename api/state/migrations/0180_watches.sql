-- Watches (API.md "Watch" and "Events"): a condition a token registered once, and the webhook deliveries it
-- causes. api/watches/ owns the watches and their evaluation; api/webhooks/ owns the outbox and its delivery.
-- The seam between them is the outbox row: an evaluation that fires inserts it in the same transaction that
-- records what it evaluated, so a crash at any moment either loses both or keeps both.

CREATE TABLE IF NOT EXISTS watches (
  id            text        PRIMARY KEY CHECK (id ~ '^wat_[0-9a-f]{24}$'),
  token_id      text        NOT NULL REFERENCES tokens (id),
  spec          jsonb       NOT NULL,
  callback_url  text        NOT NULL CHECK (char_length(callback_url) BETWEEN 1 AND 2048),
  -- The signing secret (Standard Webhooks form: whsec_ + base64 of 24 to 64 random bytes).
  secret        text        NOT NULL CHECK (char_length(secret) BETWEEN 16 AND 200),
  fire_cap      integer     NOT NULL CHECK (fire_cap BETWEEN 1 AND 10000),
  fire_count    integer     NOT NULL DEFAULT 0 CHECK (fire_count >= 0),
  status        text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'capped', 'expired', 'deleted')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  deleted_at    timestamptz,
  -- Edge-trigger memory: what the last evaluation saw (null before the first), and when.
  last_seen     jsonb,
  evaluated_at  timestamptz
);
CREATE INDEX IF NOT EXISTS watches_token_active ON watches (token_id) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS watches_type_active ON watches ((spec ->> 'type')) WHERE status = 'active';

-- The outbox: one row per message to deliver. The id is the webhook-id header, the same on every attempt, so a
-- receiver dedupes by it; body is the exact bytes sent and signed on every attempt.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id               text        PRIMARY KEY CHECK (id ~ '^msg_[0-9a-f]{24}$'),
  watch_id         text        NOT NULL REFERENCES watches (id),
  kind             text        NOT NULL CHECK (kind IN ('fire', 'test')),
  body             text        NOT NULL CHECK (octet_length(body) <= 262144),
  created_at       timestamptz NOT NULL DEFAULT now(),
  state            text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts         integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  -- A worker that claimed the row holds it until then; a crashed worker's claim lapses and another retries.
  leased_until     timestamptz,
  delivered_at     timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_watch ON webhook_deliveries (watch_id, created_at DESC);

-- One row per attempt, for the owner reading the watch: status code (null when no response), latency, error.
CREATE TABLE IF NOT EXISTS webhook_attempts (
  delivery_id  text        NOT NULL REFERENCES webhook_deliveries (id),
  attempt      integer     NOT NULL CHECK (attempt >= 1),
  started_at   timestamptz NOT NULL,
  status_code  integer,
  latency_ms   integer     CHECK (latency_ms >= 0),
  error        text        CHECK (char_length(error) <= 300),
  PRIMARY KEY (delivery_id, attempt)
);
