-- billing_charge_batch (0110), set-based and with its durability wait moved off the token's row lock.
--
-- 1. Lock the batch's token rows in id order (the same order in every process: no deadlock) and read their
--    balance and expiry once.
-- 2. Decide each charge in arrival order in memory: charged while the token's running balance covers it
--    (partial acceptance: a batch larger than the balance charges its first calls and refuses the rest),
--    short otherwise, expired for an unknown or expired token.
-- 3. One UPDATE per token with the sum of its accepted charges, one multi-row INSERT of the charge rows
--    (holds, status 'committed') and one of their ledger entries.
-- The ledger invariant (tokens.balance = SUM(ledger.delta)) holds at the end of the statement, and the
-- balance never goes below zero (CHECK (balance >= 0) stays the second line).
--
-- p_flush_later = true commits the statement's transaction without waiting for its WAL to reach disk
-- (synchronous_commit off for this transaction only), so the token's row lock is released as soon as the
-- commit record is written, not after the fsync: the next batch on the same token (from this process or
-- another) does not wait for this one's disk write. The caller MUST then run billing_flush() and answer no
-- call before it returned: WAL is flushed in order, so billing_flush()'s own durable commit, which comes
-- after this one in the WAL, makes this batch durable too. A crash before that loses the batch as a whole
-- (its transaction is atomic) and its callers were never answered.
DROP FUNCTION IF EXISTS billing_charge_batch(text[], text[], bigint[], text[], text[], text[], text[]);

CREATE OR REPLACE FUNCTION billing_charge_batch(
  p_ids text[], p_tokens text[], p_costs bigint[], p_endpoints text[],
  p_request_hashes text[], p_response_hashes text[], p_receipt_ids text[], p_flush_later boolean DEFAULT false
) RETURNS TABLE (o_outcome text, o_balance bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  n int := coalesce(array_length(p_ids, 1), 0);
  tok_ids text[];
  tok_bal bigint[];
  tok_live boolean[];
  outcomes text[] := array_fill(NULL::text, ARRAY[n]);
  balances bigint[] := array_fill(NULL::bigint, ARRAY[n]);
  accepted boolean[] := array_fill(false, ARRAY[n]);
  i int;
  k int;
BEGIN
  IF n = 0 THEN RETURN; END IF;
  IF p_flush_later THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  SELECT array_agg(id ORDER BY id), array_agg(balance ORDER BY id), array_agg(live ORDER BY id)
    INTO tok_ids, tok_bal, tok_live
    FROM (SELECT t.id, t.balance, (t.expires_at IS NULL OR t.expires_at > now()) AS live
            FROM tokens t WHERE t.id = ANY (p_tokens) ORDER BY t.id FOR UPDATE) locked;
  FOR i IN 1 .. n LOOP
    k := array_position(tok_ids, p_tokens[i]);
    IF k IS NULL OR NOT tok_live[k] THEN
      outcomes[i] := 'expired';
    ELSIF tok_bal[k] >= p_costs[i] THEN
      tok_bal[k] := tok_bal[k] - p_costs[i];
      outcomes[i] := 'charged';
      balances[i] := tok_bal[k];
      accepted[i] := true;
    ELSE
      outcomes[i] := 'short';
      balances[i] := tok_bal[k];
    END IF;
  END LOOP;
  IF true = ANY (accepted) THEN
    UPDATE tokens t SET balance = u.balance
      FROM unnest(tok_ids, tok_bal) AS u(id, balance)
     WHERE t.id = u.id AND t.balance <> u.balance;
    INSERT INTO holds (id, token_id, cost, endpoint, request_hash, status, response_hash, receipt_id, settled_at)
    SELECT c.id, c.token_id, c.cost, c.endpoint, c.request_hash, 'committed', c.response_hash, c.receipt_id, now()
      FROM unnest(p_ids, p_tokens, p_costs, p_endpoints, p_request_hashes, p_response_hashes, p_receipt_ids, accepted)
           AS c(id, token_id, cost, endpoint, request_hash, response_hash, receipt_id, ok)
     WHERE c.ok;
    INSERT INTO ledger (token_id, delta, reason, ref)
    SELECT c.token_id, -c.cost, 'hold', c.id
      FROM unnest(p_ids, p_tokens, p_costs, accepted) AS c(id, token_id, cost, ok)
     WHERE c.ok;
  END IF;
  RETURN QUERY SELECT u.outcome, u.balance FROM unnest(outcomes, balances) AS u(outcome, balance);
END
$fn$;

-- Make every transaction committed before this call durable: a transactional WAL record whose commit (with
-- the server's synchronous_commit, on by default) waits until the WAL is on disk up to here, and so past
-- every earlier commit. Concurrent calls share one fsync (Postgres groups WAL flushes). Returns the
-- position of the record.
CREATE OR REPLACE FUNCTION billing_flush() RETURNS pg_lsn
LANGUAGE sql VOLATILE AS $fn$
  SELECT pg_logical_emit_message(true, 'agentfeed.billing_flush', '')
$fn$;
