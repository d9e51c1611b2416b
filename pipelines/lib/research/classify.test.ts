import { describe, expect, it } from "vitest";
import { AFFILIATION_TYPES, METHODOLOGY_BUCKETS, SUBFIELD_TAGS } from "../../contract/vocabularies/research.ts";
import { affiliationName, affiliationType, classifyPreprint } from "./classify.ts";
import { evaluateClassifier, loadLabelledSet, score } from "./evaluate.ts";

const text = (title: string, summary = "", affiliations: string[] = [], primaryCategory = "cs.LG") => ({ title, summary, primaryCategory, affiliations });

describe("classifyPreprint()", () => {
  it("answers with the rule and the phrases that fired", () => {
    const c = classifyPreprint(text("A Survey of Retrieval-Augmented Generation", "In this survey we review retrieval for large language models."));
    expect(c.subfield_tag).toBe("survey");
    expect(c.subfield_rule).toMatch(/^survey: .*title “survey”/);
    expect(c.methodology_bucket).toBe("survey");
  });

  it("LLM-only rules need a language-model context", () => {
    const llm = classifyPreprint(text("Aligning Large Language Models with Human Preference", "We study preference optimization with a reward model."));
    expect(llm.subfield_tag).toBe("llm-alignment");
    const noLlm = classifyPreprint(text("Aligning Point Clouds", "We register 3D point cloud scans."));
    expect(noLlm.subfield_tag).toBe("vision");
  });

  it("a primary category adds weight; nothing matched is other, said so", () => {
    expect(classifyPreprint(text("Grasping Deformable Objects", "We learn grasps.", [], "cs.RO")).subfield_rule).toMatch(/primary category cs\.RO/);
    const none = classifyPreprint(text("On Something Else Entirely", "Nothing here."));
    expect(none).toMatchObject({ subfield_tag: "other", methodology_bucket: "other", is_milestone_candidate: false, milestone_reasoning: null, affiliation_type: "unknown" });
    expect(none.subfield_rule).toMatch(/no rule phrase/);
  });

  it("milestone candidates: a technical report, a frontier lab's new model, or state of the art released openly", () => {
    expect(classifyPreprint(text("Qwen9 Technical Report", "")).milestone_reasoning).toMatch(/technical report/);
    expect(classifyPreprint(text("A New Model", "We introduce Llama 9, a family of models.", ["Meta AI"])).is_milestone_candidate).toBe(true);
    expect(classifyPreprint(text("Fast Segmentation", "Our method is state of the art and we release the code.")).milestone_reasoning).toMatch(/state of the art/);
    expect(classifyPreprint(text("Fast Segmentation", "Our method is state of the art.")).is_milestone_candidate).toBe(false);
  });

  it("affiliations: typed by lexicon, mixed across types, unknown without a clue", () => {
    expect(["Stanford University", "Google DeepMind", "Lawrence Livermore National Laboratory", "Allen Institute for AI", "DeepSeek-AI", "Contextual AI", "Acme Widgets"].map(affiliationType)).toEqual([
      "academia", "industry", "government", "nonprofit", "industry", "industry", "unknown",
    ]);
    expect(classifyPreprint(text("T", "", ["MIT", "NVIDIA"])).affiliation_type).toBe("mixed");
    expect(classifyPreprint(text("T", "", ["MIT", "Stanford University"])).affiliation_type).toBe("academia");
    expect(affiliationName("Google Research, Mountain View, CA")).toBe("Google Research");
  });

  it("is deterministic and stays inside the vocabularies", () => {
    const { preprints } = loadLabelledSet();
    for (const p of preprints) {
      const t = { title: p.title, summary: p.summary, primaryCategory: p.primaryCategory, affiliations: p.affiliations };
      const a = classifyPreprint(t);
      expect(classifyPreprint(t)).toEqual(a);
      expect(SUBFIELD_TAGS).toContain(a.subfield_tag);
      expect(METHODOLOGY_BUCKETS).toContain(a.methodology_bucket);
      expect(AFFILIATION_TYPES).toContain(a.affiliation_type);
    }
  });
});

describe("the hand-labelled set", () => {
  it("has at least 100 preprints, every one labelled, with affiliations read from the Atom entries", () => {
    const { preprints, labels } = loadLabelledSet();
    expect(preprints.length).toBeGreaterThanOrEqual(100);
    expect(Object.keys(labels.papers).sort()).toEqual(preprints.map((p) => p.id).sort());
    expect(preprints.filter((p) => p.affiliations.length > 0).length).toBe(preprints.length);
  });

  it("the classifier holds its measured accuracy (a regression fails here; npm run eval:research prints every label)", () => {
    const r = evaluateClassifier();
    expect(r.subfield.accuracy).toBeGreaterThanOrEqual(0.7);
    expect(r.methodology.accuracy).toBeGreaterThanOrEqual(0.55);
    expect(r.milestone.accuracy).toBeGreaterThanOrEqual(0.75);
    expect(r.paperAffiliation.accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it("score(): precision, recall and accuracy per label", () => {
    const s = score([{ predicted: "a", actual: "a" }, { predicted: "a", actual: "b" }, { predicted: "b", actual: "b" }]);
    expect(s.accuracy).toBeCloseTo(2 / 3);
    expect(s.labels).toEqual([
      { label: "a", predicted: 2, actual: 1, correct: 1, precision: 0.5, recall: 1 },
      { label: "b", predicted: 1, actual: 2, correct: 1, precision: 1, recall: 0.5 },
    ]);
  });
});
