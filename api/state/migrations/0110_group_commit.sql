-- Group commit of paid calls (api/billing/group-commit.ts): one statement settles a batch of charges without
-- Idempotency-Keys, so the batch costs one round trip and one durable commit. The batch's token rows are
-- locked first in id order (every process locks in the same order: no deadlock); then each charge, in arrival
-- order, is a conditional debit (never below zero, token not expired) with its committed charge row (holds,
-- status 'committed') and its ledger entry, or nothing at all when the token is short or expired.
CREATE OR REPLACE FUNCTION billing_charge_batch(
  p_ids text[], p_tokens text[], p_costs bigint[], p_endpoints text[],
  p_request_hashes text[], p_response_hashes text[], p_receipt_ids text[]
) RETURNS TABLE (o_outcome text, o_balance bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  i int;
  b bigint;
  is_live boolean;
BEGIN
  PERFORM 1 FROM tokens WHERE id = ANY (p_tokens) ORDER BY id FOR UPDATE;
  FOR i IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
    UPDATE tokens t SET balance = t.balance - p_costs[i]
     WHERE t.id = p_tokens[i] AND t.balance >= p_costs[i] AND (t.expires_at IS NULL OR t.expires_at > now())
    RETURNING t.balance INTO b;
    IF FOUND THEN
      INSERT INTO holds (id, token_id, cost, endpoint, request_hash, status, response_hash, receipt_id, settled_at)
      VALUES (p_ids[i], p_tokens[i], p_costs[i], p_endpoints[i], p_request_hashes[i], 'committed', p_response_hashes[i], p_receipt_ids[i], now());
      INSERT INTO ledger (token_id, delta, reason, ref) VALUES (p_tokens[i], -p_costs[i], 'hold', p_ids[i]);
      o_outcome := 'charged';
      o_balance := b;
    ELSE
      SELECT t.balance, (t.expires_at IS NULL OR t.expires_at > now()) INTO b, is_live FROM tokens t WHERE t.id = p_tokens[i];
      IF NOT FOUND OR NOT is_live THEN
        o_outcome := 'expired';
        o_balance := NULL;
      ELSE
        o_outcome := 'short';
        o_balance := b;
      END IF;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$fn$;
