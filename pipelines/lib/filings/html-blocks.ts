/**
 * A filing document (HTML or inline-XBRL XHTML, as EDGAR serves it) read as the blocks a reader sees: one block per
 * paragraph-like element, one per table row (its cells joined), each with its plain text and how much of that text
 * is bold or italic (headings in filings are marked by style, not by <h1>). Hidden content is skipped: the inline
 * XBRL header (`ix:header`), script/style, and anything styled `display:none`. Streaming (htmlparser2), so a
 * 20 MB document costs its text, not a DOM.
 */
import { Parser } from "htmlparser2";

/** One visible block of a filing document, in document order. */
export interface HtmlBlock {
  /** Plain text, entities decoded, whitespace collapsed, trimmed; never empty. */
  text: string;
  /** Share (0-1) of the block's non-space characters set in bold. */
  bold: number;
  /** Share (0-1) of the block's non-space characters set in italic. */
  italic: number;
  /** The block is a table row (a table of contents line, a figure table …). */
  inTable: boolean;
}

/** Elements that end a block (outside tables). */
const BLOCK_TAGS = new Set(["p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "hr", "section", "article", "blockquote", "ul", "ol", "center", "pre", "dd", "dt"]);
/** Elements whose content is never shown. */
const HIDDEN_TAGS = new Set(["script", "style", "head", "title", "ix:header", "noscript", "template"]);
/** Void elements: no closing tag follows. */
const VOID_TAGS = new Set(["br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source"]);

interface Frame {
  name: string;
  bold: boolean;
  italic: boolean;
  hidden: boolean;
}

function styleOf(attributes: Record<string, string>): string {
  return (attributes.style ?? "").toLowerCase().replace(/\s+/g, "");
}

function isBoldStyle(style: string): boolean {
  const m = /font-weight:(bold|bolder|[5-9]00)/.exec(style);
  return m !== null;
}

/** Read every visible block of `html`, in order. */
export function htmlBlocks(html: string): HtmlBlock[] {
  const blocks: HtmlBlock[] = [];
  const stack: Frame[] = [{ name: "#root", bold: false, italic: false, hidden: false }];
  let tableDepth = 0;
  let text = "";
  let boldChars = 0;
  let italicChars = 0;
  let visibleChars = 0;

  const top = () => stack[stack.length - 1]!;
  const flush = () => {
    const clean = text.replace(/\s+/g, " ").trim();
    if (clean !== "" && visibleChars > 0) {
      blocks.push({ text: clean, bold: boldChars / visibleChars, italic: italicChars / visibleChars, inTable: tableDepth > 0 });
    }
    text = "";
    boldChars = 0;
    italicChars = 0;
    visibleChars = 0;
  };
  const breakBlock = (name: string) => {
    if (tableDepth > 0) {
      if (name === "tr") flush();
      else if (name === "td" || name === "th" || BLOCK_TAGS.has(name)) text += " ";
      return;
    }
    if (BLOCK_TAGS.has(name) || name === "table") flush();
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const parent = top();
        const style = styleOf(attributes);
        const frame: Frame = {
          name,
          bold: (parent.bold && !/font-weight:(normal|[1-4]00)/.test(style)) || name === "b" || name === "strong" || isBoldStyle(style) || /^h[1-6]$/.test(name),
          italic: (parent.italic && !/font-style:normal/.test(style)) || name === "i" || name === "em" || /font-style:italic/.test(style),
          hidden: parent.hidden || HIDDEN_TAGS.has(name) || /display:none/.test(style),
        };
        if (!frame.hidden) breakBlock(name);
        if (name === "table" && !frame.hidden) tableDepth++;
        if (VOID_TAGS.has(name)) return;
        stack.push(frame);
      },
      ontext(data) {
        const frame = top();
        if (frame.hidden) return;
        text += data;
        const visible = data.replace(/\s+/g, "").length;
        visibleChars += visible;
        if (frame.bold) boldChars += visible;
        if (frame.italic) italicChars += visible;
      },
      onclosetag(name) {
        if (VOID_TAGS.has(name)) return;
        // Pop to the matching frame (tolerates unclosed inner tags).
        let i = stack.length - 1;
        while (i > 0 && stack[i]!.name !== name) i--;
        if (i === 0) return;
        const frame = stack[i]!;
        stack.length = i;
        if (frame.hidden) return;
        if (name === "table") {
          flush();
          tableDepth = Math.max(0, tableDepth - 1);
          return;
        }
        breakBlock(name);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}
