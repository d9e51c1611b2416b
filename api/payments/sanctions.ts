/**
 * The sanctions screening list (used by screening.ts at every payment door): the bundled list, or a replacement named by SANCTIONS_LIST — a JSON
 * file (an array of addresses, or `{ addresses: [...] }` whose items are strings or `{ address }`), or a text
 * file with one address per line (`#` starts a comment).
 */
import { readFile, stat } from "node:fs/promises";
import { isAddress } from "viem";
import { BUNDLED_SANCTIONS } from "./sanctions-list.ts";

/** A loaded screening list. */
export interface SanctionsList {
  /** Where the list came from (the bundled source, or the file path). */
  source: string;
  /** Date of the list (YYYY-MM-DD): the bundled list's compilation date, a file's modification date; null when unknown. */
  date: string | null;
  size: number;
  /** True when the address (any case) is listed. */
  has(address: string): boolean;
}

/** A replacement sanctions list cannot be read or holds something that is not an address. */
export class SanctionsListError extends Error {
  override name = "SanctionsListError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A list over the given addresses. */
export function sanctionsList(addresses: Iterable<string>, source: string, date: string | null = null): SanctionsList {
  const set = new Set<string>();
  for (const a of addresses) {
    if (!isAddress(a, { strict: false })) throw new SanctionsListError(`sanctions list ${source}: "${a}" is not an address`);
    set.add(a.toLowerCase());
  }
  return { source, date, size: set.size, has: (address) => set.has(address.toLowerCase()) };
}

/** The bundled list. */
export function bundledSanctions(): SanctionsList {
  return sanctionsList(
    BUNDLED_SANCTIONS.addresses.map((a) => a.address),
    BUNDLED_SANCTIONS.source,
    BUNDLED_SANCTIONS.compiled,
  );
}

/** Load the list named by `path`, or the bundled list when `path` is undefined. */
export async function loadSanctions(path: string | undefined): Promise<SanctionsList> {
  if (!path) return bundledSanctions();
  let text: string;
  let date: string;
  try {
    text = await readFile(path, "utf8");
    date = (await stat(path)).mtime.toISOString().slice(0, 10);
  } catch (err) {
    throw new SanctionsListError(`sanctions list ${path}: cannot read it`, { cause: err });
  }
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (err) {
      throw new SanctionsListError(`sanctions list ${path}: invalid JSON`, { cause: err });
    }
    const items = Array.isArray(parsed) ? parsed : (parsed as { addresses?: unknown }).addresses;
    if (!Array.isArray(items)) throw new SanctionsListError(`sanctions list ${path}: expected an array or { addresses: [...] }`);
    const addresses = items.map((item) => (typeof item === "string" ? item : String((item as { address?: unknown })?.address)));
    return sanctionsList(addresses, path, date);
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*$/, "").trim())
    .filter(Boolean);
  return sanctionsList(lines, path, date);
}
