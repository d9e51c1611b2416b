/**
 * The keywords of a preprint for the emerging-keywords analysis: the distinct lower-case words of its title and
 * abstract (letters, digits and inner hyphens, at least 3 characters) that are not stopwords, and the adjacent
 * pairs of such words within a sentence (bigrams such as "speculative decoding"). Deterministic; at most
 * MAX_KEYWORDS per preprint, title terms first.
 */

/** Keywords kept per preprint at most. */
export const MAX_KEYWORDS = 80;

/** English function words and the generic vocabulary of any ML abstract, which say nothing about a topic. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above across after again against all almost along also although always among an and another any are around as at be because been before being below between both but by can could did do does doing done down during each either else enough even every few for from further had has have having he her here hers him his how however i if in into is it its itself just least less like made make makes many may might more most much must my neither no nor not now of off often on once one only onto or other others our ours out over own per perhaps rather same several she should since so some such than that the their theirs them then there these they this those though through thus to too toward towards under until up upon us very via was we were what when where whether which while who whom whose why will with within without would yet you your " +
    "approach approaches based method methods model models paper propose proposed proposes show shows shown result results using use used uses new novel task tasks work study studies performance significant significantly existing prior previous current recent recently state art demonstrate demonstrates demonstrated experiment experiments experimental further first two three various different large small high low well better best improve improves improved improvement improvements provide provides achieve achieves achieved set sets key able however framework frameworks problem problems data dataset datasets learning neural network networks deep training train trained trains specific general each code available release released"
  ).split(/\s+/),
);

const WORD = /[a-z][a-z0-9]*(?:-[a-z0-9]+)*/g;

function words(text: string): string[][] {
  return text
    .toLowerCase()
    .split(/[.;:!?()\[\]]+/)
    .map((sentence) => (sentence.match(WORD) ?? []).map((w) => (w.length >= 3 && !STOPWORDS.has(w) && !/^\d/.test(w) ? w : "")));
}

/** The keywords of one preprint (unigrams and bigrams), title terms first, distinct. */
export function preprintKeywords(title: string, summary: string): string[] {
  const out = new Set<string>();
  for (const part of [title, summary]) {
    for (const sentence of words(part)) {
      sentence.forEach((w, i) => {
        if (w === "") return;
        out.add(w);
        const next = sentence[i + 1];
        if (next) out.add(`${w} ${next}`);
      });
    }
  }
  return [...out].slice(0, MAX_KEYWORDS);
}
