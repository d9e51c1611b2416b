/**
 * The top-level README stays a five-minute read, keeps the two quick-start commands, holds no hand-kept
 * endpoint list, and every relative link in it and in the folder READMEs leads somewhere.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { headingSlug } from "../api/docs/reference.ts";

const ROOT = resolve(import.meta.dirname, "..");
const read = (path: string) => readFileSync(resolve(ROOT, path), "utf8");

/** Documents written by other parts of the project; linked from here before they exist on every branch. */
const OWNED_ELSEWHERE = new Set(["api/billing/README.md", "api/payments/README.md", "api/security.md"]);

const DOCUMENTS = ["README.md", "CONFIGURATION.md", "api/README.md", "pipelines/README.md", "snapshots/README.md", "snapshots/warehouse/README.md", "scripts/README.md"];

describe("README.md", () => {
  const readme = read("README.md");

  it("is at most 300 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("gives the two quick-start commands as written", () => {
    expect(readme).toMatch(/^npm ci && npm start\b/m);
    expect(readme).toMatch(/^npm ci && npm test\b/m);
  });

  it("links to the generated endpoint reference instead of keeping an endpoint table", () => {
    expect(readme).toContain("](api/ENDPOINTS.md)");
    expect(readme).not.toMatch(/^\|\s*`?(GET|POST) \//m);
  });
});

describe("relative links in the READMEs", () => {
  for (const doc of DOCUMENTS) {
    it(`${doc}: every relative link names an existing file and heading`, () => {
      const text = read(doc).replace(/```[\s\S]*?```/g, "");
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? "").filter((l) => !/^[a-z]+:/i.test(l));
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) {
        const [file = "", fragment] = link.split("#");
        const target = file === "" ? doc : resolve(ROOT, dirname(doc), file).slice(ROOT.length + 1);
        if (OWNED_ELSEWHERE.has(target) && !existsSync(resolve(ROOT, target))) continue;
        expect(existsSync(resolve(ROOT, target)), `${doc} links to missing ${target}`).toBe(true);
        if (fragment) {
          const slugs = [...read(target).matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingSlug(m[1] ?? ""));
          expect(slugs, `${doc} links to #${fragment} in ${target}`).toContain(fragment);
        }
      }
    });
  }
});
