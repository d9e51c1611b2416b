/**
 * Receipts signed off the event loop. A paid call asks for its receipt as soon as its charge is decided, before
 * its commit; the signatures requested in one turn of the event loop go to one worker thread in one message
 * and come back in one, so the Ed25519 work (the largest single cost a paid call adds) runs on another core
 * while the call waits for its commit. The signature is the same bytes signReceipt gives (Ed25519 is
 * deterministic; a test compares them).
 *
 * One signing thread per process, started on first use and never keeping the process alive. If it cannot
 * start or fails, receipts are signed on the event loop as before (reported once): a receipt never waits on a
 * dead thread.
 */
import type { KeyObject } from "node:crypto";
import { Worker } from "node:worker_threads";
import { signingKey } from "./ed25519.ts";
import type { ReceiptKey } from "./receipt-key.ts";
import { receiptOf, signingText, signReceipt, type Receipt, type SignedFields } from "./receipts.ts";

interface Job {
  id: number;
  /** Where a failure of the signing thread is reported (the caller's server-error reporter). */
  report: (error: unknown) => void;
  key: ReceiptKey;
  signed: SignedFields;
  input: string;
  resolve(receipt: Receipt): void;
}

interface Answer {
  done: [number, string][];
  failed: [number, string][];
}

/** Signs receipts on a worker thread, a batch per turn of the event loop (use {@link receiptSigner}). */
export class ReceiptSigner {
  #worker: Worker | null = null;
  #broken = false;
  #nextId = 1;
  #queue: Job[] = [];
  #waiting = new Map<number, Job>();
  #sentKeys = new Set<string>();
  #scheduled = false;

  /** `workerUrl`: the signing thread's module (the default is the one beside this file). */
  constructor(private readonly workerUrl: URL = new URL("./receipt-signer-worker.mjs", import.meta.url)) {}

  /** The receipt for `fields` signed with `key`; resolves on the signing thread's answer (never rejects). */
  sign(key: ReceiptKey, fields: Omit<SignedFields, "key_id">, report: (error: unknown) => void = () => {}): Promise<Receipt> {
    const signed: SignedFields = { ...fields, key_id: key.kid };
    if (this.#broken) return Promise.resolve(signReceipt(key, signed));
    return new Promise((resolve) => {
      this.#queue.push({ id: this.#nextId++, report, key, signed, input: signingText(signed), resolve });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#send());
      }
    });
  }

  /** Stop the signing thread (the next sign starts a new one). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#sentKeys.clear();
    if (worker) await worker.terminate();
    this.#signHere([...this.#waiting.values()]);
    this.#waiting.clear();
  }

  #send(): void {
    this.#scheduled = false;
    const jobs = this.#queue;
    this.#queue = [];
    if (jobs.length === 0) return;
    if (this.#broken) return this.#signHere(jobs);
    const worker = this.#thread(jobs);
    if (!worker) return; // it could not start: the jobs were signed here
    const keys: [string, KeyObject][] = [];
    for (const job of jobs) {
      this.#waiting.set(job.id, job);
      if (!this.#sentKeys.has(job.key.kid)) {
        this.#sentKeys.add(job.key.kid);
        keys.push([job.key.kid, signingKey(job.key.seed)]);
      }
    }
    worker.ref();
    worker.postMessage({ keys, jobs: jobs.map((j) => ({ id: j.id, kid: j.key.kid, input: j.input })) });
  }

  /** The signing thread, started on first use; null when it cannot start (then `jobs` are signed here). */
  #thread(jobs: Job[]): Worker | null {
    if (this.#worker) return this.#worker;
    try {
      const worker = new Worker(this.workerUrl);
      worker.unref();
      worker.on("message", (answer: Answer) => this.#answered(answer));
      worker.on("error", (error) => this.#fail(worker, error, []));
      worker.on("exit", (code) => this.#fail(worker, new Error(`the receipt signing thread exited with code ${code}`), []));
      this.#worker = worker;
      return worker;
    } catch (error) {
      this.#fail(null, error, jobs);
      return null;
    }
  }

  #answered(answer: Answer): void {
    for (const [id, signature] of answer.done) {
      const job = this.#waiting.get(id);
      if (!job) continue;
      this.#waiting.delete(id);
      job.resolve(receiptOf(job.signed, signature));
    }
    const failed = answer.failed.map(([id]) => this.#waiting.get(id)).filter((j): j is Job => j !== undefined);
    for (const job of failed) this.#waiting.delete(job.id);
    if (failed.length > 0) failed[0]!.report(new Error(`the receipt signing thread refused ${failed.length} receipt(s): ${answer.failed[0]![1]}`));
    this.#signHere(failed);
    if (this.#waiting.size === 0) this.#worker?.unref();
  }

  /** The thread failed or exited (or never started): sign what it held here, and from now on sign every receipt here. */
  #fail(worker: Worker | null, error: unknown, unsent: Job[]): void {
    if (worker !== null && worker !== this.#worker) return; // a thread close() already let go of
    this.#worker = null;
    this.#broken = true;
    const held = [...unsent, ...this.#waiting.values()];
    this.#waiting.clear();
    held[0]?.report(error);
    this.#signHere(held);
  }

  #signHere(jobs: Job[]): void {
    for (const job of jobs) job.resolve(signReceipt(job.key, job.signed));
  }
}

/** The process's receipt signer. */
export const receiptSigner = new ReceiptSigner();
