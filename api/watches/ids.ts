/** Identifiers and secrets of watches and their outbox rows. */
import { randomBytes } from "node:crypto";

/** A watch id: wat_ + 24 hex characters. */
export const newWatchId = (): string => `wat_${randomBytes(12).toString("hex")}`;

/** An outbox message id (the webhook-id header): msg_ + 24 hex characters. */
export const newMessageId = (): string => `msg_${randomBytes(12).toString("hex")}`;

/** A signing secret in the Standard Webhooks form: whsec_ + base64 of 32 random bytes. */
export const newWatchSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

/** Watch ids as the routes accept them. */
export const WATCH_ID = /^wat_[0-9a-f]{24}$/;
