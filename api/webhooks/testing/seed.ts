/**
 * Test and benchmark seeding of the outbox: a token, a watch and pending deliveries written with plain SQL, as
 * the watch evaluation would write them.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Sql } from "../../state/types.ts";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Insert a paid token and a watch calling `callbackUrl`; returns the watch id and its secret. */
export async function seedWatch(db: Sql, callbackUrl: string, secret = `whsec_${randomBytes(32).toString("base64")}`): Promise<{ watchId: string; secret: string }> {
  const tokenId = `tok_${hex(12)}`;
  await db.query(`INSERT INTO tokens (id, token_hash, kind) VALUES ($1, $2, 'paid')`, [tokenId, createHash("sha256").update(tokenId).digest("hex")]);
  const watchId = `wat_${hex(12)}`;
  await db.query(
    `INSERT INTO watches (id, token_id, spec, callback_url, secret, fire_cap, expires_at)
     VALUES ($1, $2, '{"type":"price"}'::jsonb, $3, $4, 100, now() + interval '90 days')`,
    [watchId, tokenId, callbackUrl, secret],
  );
  return { watchId, secret };
}

/** Insert `count` pending deliveries for a watch (one multi-row statement); returns their ids. */
export async function seedDeliveries(db: Sql, watchId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `msg_${hex(12)}`);
  const bodies = ids.map((id, i) => JSON.stringify({ event: "watch.fire", watch_id: watchId, fired_at: new Date().toISOString(), n: i, ref: id }));
  await db.query(
    `INSERT INTO webhook_deliveries (id, watch_id, kind, body)
     SELECT id, $1, 'fire', body FROM unnest($2::text[], $3::text[]) AS t(id, body)`,
    [watchId, ids, bodies],
  );
  return ids;
}
