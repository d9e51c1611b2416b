/** The snapshot serialization is part of the contract (pipelines/contract/stable-stringify.ts). */
export { stableStringify } from "../../contract/stable-stringify.ts";
