-- billing_charge_batch (0194) takes the caller's deadline. A statement that reaches the server late (the server
-- was paused, or the token's row lock was held by another session for seconds) may find its caller gone: the
-- caller stops waiting after its query time-out and answers 503 with nothing charged. Once the batch holds its
-- token rows, a batch past p_deadline decides nothing and writes nothing, and answers 'late' for every call.
-- The deadline is the caller's clock (a DATABASE_URL server's clock must agree with the API host's, as NTP
-- keeps it); NULL keeps the old behaviour for a caller that sends none.
DROP FUNCTION IF EXISTS billing_charge_batch(text[], text[], bigint[], text[], text[], text[], text[]);

CREATE OR REPLACE FUNCTION billing_charge_batch(
  p_ids text[], p_tokens text[], p_costs bigint[], p_endpoints text[],
  p_request_hashes text[], p_response_hashes text[], p_receipt_ids text[],
  p_deadline timestamptz DEFAULT NULL
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
  SELECT array_agg(id ORDER BY id), array_agg(balance ORDER BY id), array_agg(live ORDER BY id)
    INTO tok_ids, tok_bal, tok_live
    FROM (SELECT t.id, t.balance, (t.expires_at IS NULL OR t.expires_at > now()) AS live
            FROM tokens t WHERE t.id = ANY (p_tokens) ORDER BY t.id FOR UPDATE) locked;
  -- Past the caller's deadline (a server paused or a lock held for seconds), the caller may have answered
  -- "nothing was charged" already: decide nothing, write nothing.
  IF p_deadline IS NOT NULL AND clock_timestamp() > p_deadline THEN
    RETURN QUERY SELECT 'late'::text, NULL::bigint FROM generate_series(1, n);
    RETURN;
  END IF;
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
