/** GET /api/payment/balance: the bearer token's balance and history facts. */
import { bearerToken } from "../http/bearer.ts";
import { ApiError } from "../registry/types.ts";
import type { Credits } from "../state/types.ts";

/** The balance body. */
export interface BalanceBody {
  ok: true;
  balance: number;
  created: string;
  last_used: string | null;
  total_purchased: number;
  kind: "paid" | "trial";
  expires_at?: string;
}

/**
 * The token of an Authorization header: `Bearer <token>`, or the token alone (one word); undefined without the
 * header. Another scheme (`Basic …`, `Token …`) is refused with 401 invalid_token naming it, rather than read as
 * an unknown token (or, on a confirm, as no token at all: a new one would be minted instead of the top-up asked for).
 */
export function bearerOf(request: Request): string | undefined {
  const header = request.headers.get("authorization")?.trim();
  if (!header) return undefined;
  const bearer = bearerToken(header);
  if (bearer !== undefined) return bearer;
  const scheme = /^(\S+)\s/.exec(header)?.[1];
  if (scheme === undefined) return header;
  const got = /^bearer$/i.test(scheme) ? "more than one word after Bearer" : /^[A-Za-z][\w.+-]{0,31}$/.test(scheme) ? `the ${scheme} scheme` : "another form";
  throw new ApiError(401, "invalid_token", `the Authorization header must be "Bearer <token>" (one token, nothing after it); got ${got}`);
}

/** Balance of a bearer token; 401 invalid_token when missing or unknown, 401 token_expired for an expired trial. */
export async function tokenBalance(credits: Credits, bearer: string | undefined, now: Date): Promise<BalanceBody> {
  if (!bearer) throw new ApiError(401, "invalid_token", "send Authorization: Bearer <token>");
  const info = await credits.tokenByBearer(bearer);
  if (!info) throw new ApiError(401, "invalid_token", "the bearer token is unknown or malformed");
  if (info.expiresAt && Date.parse(info.expiresAt) <= now.getTime()) {
    throw new ApiError(401, "token_expired", `the token expired at ${info.expiresAt}`);
  }
  return {
    ok: true,
    balance: info.balance,
    created: info.created,
    last_used: info.lastUsed,
    total_purchased: info.totalPurchased,
    kind: info.kind,
    ...(info.expiresAt ? { expires_at: info.expiresAt } : {}),
  };
}
