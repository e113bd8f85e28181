import fc from "fast-check";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { type Card, escapeMarkdown, parseHookRequest, ruleUrl, runCdsService } from "../src/index.js";
import {
  BASE,
  draft,
  lithium,
  medicationRequest,
  options,
  orderRequest,
  patientViewRequest,
  searchset,
  service,
} from "./fixtures.js";

/**
 * Text from the EHR can produce no link and no HTML in any card field (decision 144), shown with
 * a real GitHub Flavored Markdown renderer (micromark with its GFM extension: autolink literals,
 * tables, strikethrough, task lists, footnotes, the tag filter) over generated strings. Raw HTML
 * is let through by the renderer here (`allowDangerousHtml`), as a renderer that trusts markdown
 * would, so an element that got through the escaping would show.
 */

const render = (markdown: string) =>
  micromark(markdown, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
    allowDangerousHtml: true,
    allowDangerousProtocol: true,
  });

/** Every element name in rendered HTML (opening and closing tags, comments and declarations as "!"). */
const elements = (html: string) =>
  [...html.matchAll(/<\s*(\/?)\s*([!?]|[A-Za-z][A-Za-z0-9-]*)/g)].map((m) => (m[2] ?? "").toLowerCase());

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"' };

/** The text a reader sees: tags removed, the renderer's entities decoded. */
const visibleText = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot);/g, (_m, name: string) => ENTITIES[name] ?? "")
    .trim();

/** Pieces that start markdown or GFM constructs, mixed with arbitrary text. */
const HOSTILE = [
  "(https://evil.example/x",
  "http://evil.example",
  "www.evil.example",
  "WWW.EVIL.EXAMPLE/path?q=1",
  "ftp://evil.example",
  "mailto:a@evil.example",
  "xmpp:a@evil.example",
  "nurse@evil.example",
  "a.b-c_d+e@evil.example.org",
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "<a href='https://evil.example'>x</a>",
  "<https://evil.example>",
  "<nurse@evil.example>",
  "<!-- c -->",
  "<?php ?>",
  "<![CDATA[x]]>",
  "[x](https://evil.example)",
  "![i](https://evil.example/i.png)",
  "[ref]\n\n[ref]: https://evil.example",
  "[ref]: https://evil.example",
  "[^1]\n\n[^1]: note",
  "&lt;b&gt;",
  "&#60;b&#62;",
  "&#x3C;",
  "&amp;",
  "**bold**",
  "_em_",
  "~~del~~",
  "`code`",
  "```\nfence\n```",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "- [ ] task",
  "# heading",
  "Heading\n===",
  "\n    indented code",
  "  \nline  \nbreak",
  "1. item",
  "> quote",
  "\\",
  "javascript:alert(1)",
  "\t",
  "\n\n",
  " ",
  "é",
  "＜img＞",
  "tramadol",
];

const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: "grapheme", maxLength: 12 })), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(""));

/** What the reader should see: the text with whitespace collapsed (NUL reads as U+FFFD in CommonMark). */
const expectedText = (text: string) => text.replace(/\s+/g, " ").trim().replaceAll("\u0000", "\uFFFD");

describe("EHR text is inert under GitHub Flavored Markdown", () => {
  it("escapeMarkdown: one paragraph, no link or other element, and the text reads as written", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const escaped = escapeMarkdown(text);
        const html = render(`Order: ${escaped}`);
        expect(elements(html)).toEqual(["p", "p"]);
        expect(visibleText(html)).toBe(expectedText(`Order: ${text}`));
      }),
      { numRuns: 2_000 },
    );
  });

  it("the renderer is the real thing: the same pieces unescaped do make links and HTML", () => {
    expect(render("see (https://evil.example/x")).toContain("<a href");
    expect(render("see www.evil.example")).toContain("<a href");
    expect(render("see nurse@evil.example")).toContain('<a href="mailto:');
    expect(render("x <img src=x>")).toContain("<img");
    expect(render("[ref]\n\n[ref]: https://evil.example")).toContain("<a href");
  });

  /** The plain-text fields of a card (CDS Hooks 2.0.1: only `detail` is markdown). */
  const plainFields = (card: Card): string[] => [
    card.summary,
    card.source.label,
    ...(card.suggestions ?? []).flatMap((s) => [s.label, ...s.actions.map((a) => a.description)]),
    ...(card.links ?? []).map((l) => l.label),
    ...(card.overrideReasons ?? []).map((r) => r.display),
  ];

  /**
   * `ours`: the plain fields of the same hook with a harmless token for the EHR's text, so a
   * generated text that is also our own wording (a medicine's name, "orders") is not counted as
   * the EHR's.
   */
  function expectInert(cards: readonly Card[], text: string, ours = "") {
    for (const card of cards) {
      // The detail's one link is ours: the rule's page.
      const html = render(card.detail ?? "");
      const links = [...html.matchAll(/<a\s+href="([^"]*)"/g)].map((m) => m[1]);
      expect(links).toEqual([ruleUrl(BASE, decodeURIComponent(card.source.url.split("/").pop() ?? ""))]);
      const allowed = new Set(["p", "strong", "ul", "li", "a"]);
      expect(elements(html).filter((name) => !allowed.has(name))).toEqual([]);
      for (const field of plainFields(card)) {
        const plain = render(field);
        expect(elements(plain)).toEqual(["p", "p"]);
        // Plain fields hold none of the EHR's text.
        const own = text.trim();
        if (own.length > 3 && !ours.includes(own)) expect(field).not.toContain(own);
      }
    }
  }

  it("order hooks: EHR order texts, ids and statuses in every card field", () => {
    const orderCards = (text: string) => {
      const prefetch = {
        medications: searchset([
          medicationRequest("m1", { text: `Sertraline 50 mg ${text}` }, "active"),
          { ...medicationRequest("m2", { rxnorm: "36437" }, "active"), id: text },
          { ...medicationRequest("m3", { rxnorm: "4493" }, "active"), status: text as "active" },
          medicationRequest("m4", { text }, "active"),
        ]),
      };
      const body = orderRequest(
        "order-sign",
        [draft("d1", { text: `Tramadol ${text}` }), draft("d2", { text: `${text} ibuprofen` })],
        prefetch,
      );
      const parsed = parseHookRequest(service("psych-interactions-sign"), body);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      return runCdsService(parsed, prefetch, options()).cards;
    };
    const ours = orderCards("qqqq").flatMap(plainFields).join("\n");
    fc.assert(
      fc.property(hostileText, (text) => {
        const cards = orderCards(text);
        expect(cards.length).toBeGreaterThan(0);
        expectInert(cards, text, ours);
      }),
      { numRuns: 100 },
    );
  });

  it("patient-view: EHR Observation ids and statuses that reach engine sentences", () => {
    const patientViewCards = (text: string) => {
      const day = (n: number) => new Date(Date.parse("2026-11-26T12:00:00Z") - n * 86_400_000).toISOString();
      const prefetch = {
        scores: searchset([]),
        labs: searchset([
          { ...lithium("l1", 1.9, day(40), "HH"), id: text },
          { ...lithium("l2", 0.4, day(2), "N"), id: `${text}-2` },
          { ...lithium("l3", 0.6, day(1)), status: text as "final" },
        ]),
        medications: searchset([
          { ...medicationRequest("m1", { text: "Lithium carbonate 400 mg" }, "active"), id: text },
        ]),
      };
      const parsed = parseHookRequest(service("psych-patient-view"), patientViewRequest(prefetch));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      return runCdsService(parsed, prefetch, options()).cards;
    };
    const ours = patientViewCards("qqqq").flatMap(plainFields).join("\n");
    fc.assert(
      fc.property(hostileText, (text) => {
        const cards = patientViewCards(text);
        expect(cards.length).toBeGreaterThan(0);
        expectInert(cards, text, ours);
      }),
      { numRuns: 100 },
    );
  });
});
