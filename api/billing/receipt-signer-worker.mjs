// The thread that signs receipts for api/billing/receipt-signer.ts (plain JavaScript, so it loads the same
// under tsx, vitest and plain node). It receives `{ keys?: [[kid, private KeyObject]], jobs: [{ id, kid,
// input }] }`, signs each UTF-8 input with Ed25519 (node:crypto), and answers `{ done: [[id, base64url
// signature]], failed: [[id, message]] }` for the whole batch in one message.
import { sign } from "node:crypto";
import { parentPort } from "node:worker_threads";

const keys = new Map();

parentPort.on("message", (message) => {
  for (const [kid, key] of message.keys ?? []) keys.set(kid, key);
  const done = [];
  const failed = [];
  for (const job of message.jobs) {
    try {
      const key = keys.get(job.kid);
      if (!key) throw new Error(`no key ${job.kid} was sent to the signing thread`);
      done.push([job.id, sign(null, Buffer.from(job.input, "utf8"), key).toString("base64url")]);
    } catch (error) {
      failed.push([job.id, error instanceof Error ? error.message : String(error)]);
    }
  }
  parentPort.postMessage({ done, failed });
});
