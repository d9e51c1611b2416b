/**
 * The bundled sanctions screening list: Ethereum-format addresses published as digital-currency identifiers
 * of entries on the US Treasury OFAC SDN list. Only addresses whose designation is well established are
 * included; an operator who needs a complete, current list points SANCTIONS_LIST at one (see sanctions.ts).
 */

/** One screened address and the designation it comes from. */
export interface SanctionedAddress {
  address: string;
  entity: string;
  designated: string;
}

/** The bundled list. */
export const BUNDLED_SANCTIONS = {
  source: "US Treasury OFAC Specially Designated Nationals list, digital currency address identifiers (ETH)",
  compiled: "2025-01-15",
  note:
    "Kept short on purpose: only identifiers known with certainty. The Tornado Cash addresses designated on " +
    "2022-08-08 are not included: Treasury removed Tornado Cash from the SDN list on 2025-03-21. Replace this " +
    "list with SANCTIONS_LIST for production screening.",
  addresses: [
    {
      address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96",
      entity: "Lazarus Group (Ronin bridge theft)",
      designated: "2022-04-14",
    },
  ] satisfies SanctionedAddress[],
};
