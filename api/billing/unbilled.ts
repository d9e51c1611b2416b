/**
 * PREMIUM_BILLING=off: the premium wrapper for operators who run the service for their own agents. Every
 * premium route is served without a token, without billing and without receipts: validate → run → the
 * handler's answer. It needs no state database. /api/meta, /llms.txt and the OpenAPI document say so.
 */
import { toErrorParts } from "../http/errors.ts";
import { ApiError } from "../registry/types.ts";
import { Breakers } from "./breakers.ts";
import { NO_CHARGE_REASONS } from "./no-charge.ts";
import { AnswerMemo, run, type PremiumCall, type PremiumGateway } from "./premium.ts";
import { reply } from "./premium-reply.ts";

/** What this line says wherever the instance describes itself. */
export const UNBILLED_NOTE =
  "premium billing is off on this instance (PREMIUM_BILLING=off): premium routes are served without a token, without charge and without receipts";

/** The premium wrapper without billing. */
export function createUnbilledGateway(options: { onServerError?: (error: unknown, where: string) => void } = {}): PremiumGateway {
  const report = (error: unknown, where: string) => options.onServerError?.(error, where);
  const answers = new AnswerMemo();
  async function serve(call: PremiumCall): Promise<Response> {
    const { route } = call;
    try {
      // HEAD runs like GET (nothing is billed here) and Node sends the headers without the body.
      const input = await call.parse();
      const missing = (route.snapshots ?? []).filter((t) => !call.context.snapshots.get(t));
      if (missing.length > 0) {
        throw new ApiError(503, NO_CHARGE_REASONS.snapshot_unavailable, `snapshot ${missing.join(", ")} is not available yet`);
      }
      const ran = await run({ report, answers }, call, input);
      return ran.ok ? reply({ status: 200, body: ran.result, definitive: true }, {}) : reply({ status: ran.status, body: ran.body, definitive: false }, {});
    } catch (err) {
      const parts = toErrorParts(err);
      if (parts.status >= 500 && !(err instanceof ApiError)) report(err, `${route.method} ${route.path}`);
      return reply({ status: parts.status, body: parts.body, ...(parts.headers ? { headers: parts.headers } : {}), definitive: false }, {});
    }
  }
  return { serve, breakers: new Breakers(), billing: false };
}
