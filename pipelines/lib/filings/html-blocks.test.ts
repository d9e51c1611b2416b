import { describe, expect, it } from "vitest";
import { htmlBlocks } from "./html-blocks.ts";

describe("htmlBlocks()", () => {
  it("reads one block per paragraph with the share of bold and italic text, entities decoded", () => {
    const html = `<html><body>
      <div><span style="font-weight:700">Risks Related to Our Industry</span></div>
      <div><span style="font-style:italic;font-weight:400">Competition could harm us.</span></div>
      <p>Our markets &#8220;remain&#8221; <b>very</b> competitive.</p>
    </body></html>`;
    const blocks = htmlBlocks(html);
    expect(blocks.map((b) => b.text)).toEqual(["Risks Related to Our Industry", "Competition could harm us.", "Our markets “remain” very competitive."]);
    expect(blocks[0]).toMatchObject({ bold: 1, italic: 0, inTable: false });
    expect(blocks[1]).toMatchObject({ bold: 0, italic: 1 });
    expect(blocks[2]!.bold).toBeCloseTo(4 / 34, 5); // "very" of 34 visible characters
  });

  it("skips the inline XBRL header, scripts, styles and anything styled display:none", () => {
    const html = `<html><head><title>t</title><style>p{}</style></head><body>
      <div style="display:none"><ix:header><ix:hidden>NVDA 2025 FY</ix:hidden></ix:header></div>
      <ix:header>hidden facts</ix:header><script>var x = 1;</script>
      <div>Item 1A. Risk Factors</div></body></html>`;
    expect(htmlBlocks(html).map((b) => b.text)).toEqual(["Item 1A. Risk Factors"]);
  });

  it("joins a table row's cells into one block marked inTable, and a weight of normal undoes an inherited bold", () => {
    const html = `<table><tr><td><div>Item 1A.</div></td><td><p>Risk Factors</p></td><td>12</td></tr></table>
      <div style="font-weight:bold">Heading <span style="font-weight:normal">plain</span></div>`;
    const blocks = htmlBlocks(html);
    expect(blocks[0]).toMatchObject({ text: "Item 1A. Risk Factors 12", inTable: true });
    expect(blocks[1]).toMatchObject({ text: "Heading plain", inTable: false });
    expect(blocks[1]!.bold).toBeCloseTo(7 / 12, 5);
  });

  it("tolerates unclosed and stray tags without losing text", () => {
    expect(htmlBlocks("<div><span>open<div>inner</span></div></p>tail").map((b) => b.text)).toEqual(["open", "inner", "tail"]);
    expect(htmlBlocks("")).toEqual([]);
  });
});
