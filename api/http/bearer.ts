/** The token of an `Authorization: Bearer <token>` header (scheme in any case, one token, nothing after it), or undefined. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}
