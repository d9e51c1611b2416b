/**
 * The OpenAPI contract as a test sees it: every answer an end-to-end test receives is held against the document
 * the service publishes (built from the registry, as /openapi.json serves it) with openapi-backend, whose
 * validators run on Ajv in JSON Schema 2020-12 mode (the dialect of OpenAPI 3.1). `contractFetch` is a drop-in
 * `fetch` for tests that does this on every call and throws, naming the operation, the status and the
 * validator's message, when an answer breaks the contract.
 */
import { OpenAPIBackend, type Document, type Operation } from "openapi-backend";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Validator } from "@seriousme/openapi-schema-validator";
import { buildOpenApi, type OpenApiOptions } from "../docs/openapi.ts";
import { routes } from "../registry/index.ts";

/** One answer as the checker saw it. */
export interface CheckedAnswer {
  method: string;
  /** Path template of the matched operation, or the path as requested when none matched. */
  path: string;
  operationId: string | null;
  status: number;
}

/** A contract violation: the operation, the status and what the validator said. */
export class ContractError extends Error {
  override name = "ContractError";
}

type ResponseObject = { content?: Record<string, unknown>; headers?: Record<string, { required?: boolean }> };

/** Statuses an answer outside every operation may have (unknown path, method not allowed). */
const OUTSIDE_OPERATIONS = new Set([404, 405]);

/** A checker over one OpenAPI document. */
export class OpenApiContract {
  /** Every answer checked so far (for coverage assertions). */
  readonly seen: CheckedAnswer[] = [];

  private constructor(private readonly api: OpenAPIBackend) {}

  /** Load a document; throws a ContractError when it is not itself valid OpenAPI 3.1 (checked against the official schema). */
  static async load(document: Record<string, unknown>): Promise<OpenApiContract> {
    const valid = await new Validator().validate(structuredClone(document));
    if (!valid.valid) {
      const errors = typeof valid.errors === "string" ? valid.errors : JSON.stringify(valid.errors?.slice(0, 5), null, 1);
      throw new ContractError(`the OpenAPI document is not valid OpenAPI ${String(document.openapi)}: ${errors}`);
    }
    const api = new OpenAPIBackend({
      definition: structuredClone(document) as unknown as Document,
      strict: true,
      // Quick mode skips openapi-backend's own definition check, which knows the 3.0 schema only; the document
      // was checked above against the 3.1 schema.
      quick: true,
      customizeAjv: (_ajv, options) => addFormats.default(new Ajv2020({ ...options, allErrors: true, strict: false }) as never) as never,
    });
    await api.init();
    return new OpenApiContract(api);
  }

  /** The answer as matched, and its problems (empty when it keeps the contract); records it in `seen`. */
  async check(method: string, url: URL, response: Response): Promise<{ answer: CheckedAnswer; problems: string[] }> {
    const verb = method.toUpperCase();
    const operation = this.api.router.matchOperation({ method: verb === "HEAD" ? "get" : verb.toLowerCase(), path: url.pathname, headers: {} });
    const answer: CheckedAnswer = { method: verb, path: operation?.path ?? url.pathname, operationId: operation?.operationId ?? null, status: response.status };
    this.seen.push(answer);
    return { answer, problems: await this.problemsOf(verb, operation, response) };
  }

  private async problemsOf(verb: string, operation: Operation | undefined, response: Response): Promise<string[]> {
    const status = response.status;
    if (verb === "OPTIONS") return status === 204 ? [] : [`a preflight answered ${status}, expected 204`];
    if (!operation) return this.checkOutside(status, response);
    if (verb === "HEAD" && status === 405) return [];
    const declared = declaredResponse(operation, status);
    if (!declared) return [`status ${status} is not declared (declared: ${Object.keys(operation.responses ?? {}).join(", ")})`];
    const problems = this.checkHeaders(operation, status, declared, response.headers);
    if (verb === "HEAD" || !declared.content) return problems;
    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const declaredTypes = Object.keys(declared.content).map((t) => t.split(";")[0]!.trim());
    if (!declaredTypes.includes(mediaType)) return [...problems, `content type ${mediaType || "(none)"} is not declared (declared: ${declaredTypes.join(", ")})`];
    if (mediaType !== "application/json") return problems;
    const body = await jsonOf(response);
    if (body === undefined) return [...problems, "the body is not JSON"];
    const result = this.api.validator.validateResponse(body, operation, status);
    for (const e of result.errors ?? []) problems.push(`body ${e.instancePath || "(root)"} ${e.message ?? "is invalid"}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
    return problems;
  }

  /** An answer no operation covers: the service's 404 and 405 with the shared error body. */
  private async checkOutside(status: number, response: Response): Promise<string[]> {
    if (!OUTSIDE_OPERATIONS.has(status)) return [`no operation matches, and ${status} is not a 404 or 405`];
    const body = await jsonOf(response);
    const validate = this.errorValidator();
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `error body ${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`);
  }

  private errorSchemaValidator?: ReturnType<Ajv2020["compile"]>;
  private errorValidator() {
    const schema = ((this.api.document as unknown as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {}).Error;
    if (!schema) throw new ContractError("the document has no components.schemas.Error");
    this.errorSchemaValidator ??= addFormats.default(new Ajv2020({ strict: false, allErrors: true }) as never).compile(schema as object) as ReturnType<Ajv2020["compile"]>;
    return this.errorSchemaValidator;
  }

  /** Declared headers: present when required, and of their declared type. */
  private checkHeaders(operation: Operation, status: number, declared: ResponseObject, headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      if (header.required && !headers.has(name)) problems.push(`required header ${name} is missing`);
    }
    const present = Object.fromEntries(headers.entries());
    const result = this.api.validator.validateResponseHeaders(present, operation, { statusCode: status });
    for (const e of result.errors ?? []) problems.push(`header ${e.instancePath.replace(/^\/headers\//, "")} ${e.message ?? "is invalid"}`);
    return problems;
  }
}

/** The response object the document declares for a status: exact, then its NXX range, then default. */
function declaredResponse(operation: Operation, status: number): ResponseObject | undefined {
  const responses = (operation.responses ?? {}) as Record<string, ResponseObject>;
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}

async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

let shared: Promise<OpenApiContract> | undefined;

/** The contract of this service: the document built from the registry, as /openapi.json serves it. */
export function serviceContract(options: Partial<OpenApiOptions> = {}): Promise<OpenApiContract> {
  if (Object.keys(options).length > 0) return OpenApiContract.load(buildOpenApi(routes, { baseUrl: "http://127.0.0.1", ...options }));
  shared ??= OpenApiContract.load(buildOpenApi(routes, { baseUrl: "http://127.0.0.1" }));
  return shared;
}

/** Check one answer against the service contract; throws a ContractError naming the operation, status and problems. */
export async function assertContract(method: string, url: URL, response: Response, contract?: OpenApiContract): Promise<void> {
  const checker = contract ?? (await serviceContract());
  const { answer, problems } = await checker.check(method, url, response.clone());
  if (problems.length === 0) return;
  const operation = answer.operationId ? `${answer.operationId} (${answer.method} ${answer.path})` : `${answer.method} ${url.pathname}`;
  throw new ContractError(`OpenAPI contract: ${operation} answered ${response.status}: ${problems.join("; ")}`);
}

/** `fetch` for end-to-end tests: the same call, with the answer checked against the service contract. */
export const contractFetch = contractFetchWith({});

/** A `contractFetch` for an instance whose document differs from the default (e.g. `{ premiumBilling: false }`). */
export function contractFetchWith(options: Partial<OpenApiOptions>) {
  let contract: Promise<OpenApiContract> | undefined;
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const url = new URL(input instanceof Request ? input.url : String(input));
    contract ??= serviceContract(options);
    await assertContract(method, url, response, await contract);
    return response;
  };
}
