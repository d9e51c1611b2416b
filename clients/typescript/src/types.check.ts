/**
 * Compile-time checks of the generated types (the root `npm test` type-checks this file; nothing runs it): a
 * right call compiles with typed answers, and each `@ts-expect-error` line must be an error, or tsc fails on
 * the unused directive.
 */
import { createAgentfeedClient, x402Headers } from "./index.js";

const client = createAgentfeedClient({ baseUrl: "http://localhost:3000" });

export async function typedCalls(): Promise<void> {
  const verdict = await client.GET("/api/premium/route-verdict", { params: { query: { task: "code" } } });
  const task: "code" | "reasoning" | "creative" | "general" | undefined = verdict.data?.query.task;
  const modelId: string | undefined = verdict.data?.verdict?.model.id;
  const provider = await client.GET("/api/premium/providers/{name}", { params: { path: { name: "openai" } } });
  const cheapest = await client.GET("/api/gpu/pricing/cheapest", { params: { query: { gpu: "H100" } }, headers: x402Headers({ txHash: "0xabc", memo: "m" }) });
  void [task, modelId, provider, cheapest];

  // @ts-expect-error an unknown query parameter
  await client.GET("/api/premium/route-verdict", { params: { query: { tsk: "code" } } });
  // @ts-expect-error a value outside the parameter's enum
  await client.GET("/api/premium/route-verdict", { params: { query: { task: "poetry" } } });
  // @ts-expect-error a path the service does not have
  await client.GET("/api/premium/no-such-route");
  // @ts-expect-error a field the answer does not have
  void verdict.data?.no_such_field;
}
