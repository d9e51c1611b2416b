import { describe, expect, it } from "vitest";
import { checkDatabaseUrl, describeOpenFailure, redactDatabaseUrl } from "./database-url.ts";

describe("checkDatabaseUrl()", () => {
  it("checkDatabaseUrl() accepts postgres URLs and names DATABASE_URL and the problem otherwise, never the password", () => {
    expect(() => checkDatabaseUrl("postgres://app:s3cret@db.internal:5432/agentfeed")).not.toThrow();
    expect(() => checkDatabaseUrl("postgresql://app@localhost/agentfeed")).not.toThrow();
    const cases = ["mysql://app:s3cret@db/agentfeed", "app:s3cret@db/agentfeed", "postgres://app:s3cret@:5432/x"];
    for (const value of cases) {
      let message = "";
      try {
        checkDatabaseUrl(value);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, value).toMatch(/^DATABASE_URL /);
      expect(message, value).not.toContain("s3cret");
    }
  });

  it("redactDatabaseUrl() hides the password and cuts the value to 200 characters", () => {
    expect(redactDatabaseUrl("postgres://app:s3cret@db:5432/x")).toBe("postgres://app:***@db:5432/x");
    expect(redactDatabaseUrl(`postgres://app:s3cret@db/${"x".repeat(5000)}`).length).toBeLessThan(240);
  });

  it("a password with an unencoded @ or # is hidden whole, and refused with how to encode it", () => {
    for (const value of ["postgres://agentfeed:p@ss#SECRET@127.0.0.1:55432/agentfeed", "postgres://agentfeed:abc#SECRETdef@127.0.0.1/agentfeed", "postgres://agentfeed:a/SECRET?b@db/x"]) {
      expect(redactDatabaseUrl(value), value).not.toMatch(/SECRET|ss#|abc/);
      let message = "";
      try {
        checkDatabaseUrl(value);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, value).toMatch(/^DATABASE_URL .*percent-encoded/);
      expect(message, value).not.toContain("SECRET");
    }
    expect(redactDatabaseUrl("postgres://agentfeed:p@ss#SECRET@127.0.0.1:55432/agentfeed")).toBe("postgres://agentfeed:***@127.0.0.1:55432/agentfeed");
    expect(redactDatabaseUrl("postgres://app@db/x")).toBe("postgres://app@db/x");
    expect(() => checkDatabaseUrl("postgres://app:p%40ss%23x@db/x")).not.toThrow();
  });

  it("describeOpenFailure() calls a refused connection a connection failure, not a migration failure", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5"), { code: "ECONNREFUSED" });
    const line = describeOpenFailure(refused, "postgres://app:s3cret@127.0.0.1:5/x");
    expect(line).toMatch(/^cannot connect to the Postgres server in DATABASE_URL \(postgres:\/\/app:\*\*\*@127\.0\.0\.1:5\/x\)/);
    expect(line).not.toContain("s3cret");
    expect(line).not.toMatch(/migrat/i);
  });
});
