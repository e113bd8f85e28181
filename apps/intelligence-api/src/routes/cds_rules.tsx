/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import {
  type CdsRule,
  OVERRIDE_REASONS_PATH,
  overrideReasons,
  RULE_PAGES_PATH,
  ruleById,
  rulePageJson,
} from "@svc/cds-hooks";
import { ApiError, type ServiceApp, setHtmlSecurityHeaders } from "@svc/http";

/**
 * The pages a card's `source.url` links to (decisions 114 and 128): each rule's source attributes
 * (the ones ONC's HTI-1 rule asks an EHR to show for an evidence-based intervention), public like
 * the API reference, outside `/cds-services` (whose calls need an EHR's JWT). HTML for a browser,
 * JSON when asked; and the CodeSystem of the override reasons an interaction card offers.
 */

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1f23}
th{text-align:left;vertical-align:top;padding:.4rem 1rem .4rem 0;white-space:nowrap}td{padding:.4rem 0}
code{background:#f0f2f5;padding:0 .25rem;border-radius:4px}`;

const ATTRIBUTES: readonly [string, (rule: CdsRule) => string][] = [
  ["Description", (r) => r.description],
  ["Citation", (r) => r.citation],
  ["Developer", (r) => r.developer],
  ["Evidence level", (r) => r.evidenceLevel],
  ["Last revised", (r) => r.lastRevised],
  ["Engine and version", (r) => `${r.engine.name} (${r.engine.version})`],
  ["Intended use", (r) => r.intendedUse],
  ["Cautioned use", (r) => r.cautionedUse],
];

function RulePage(props: { rule: CdsRule; nonce: string }) {
  const { rule } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{rule.title}</title>
        <style nonce={props.nonce}>{STYLE}</style>
      </head>
      <body>
        <main>
          <h1>{rule.title}</h1>
          <p>
            Rule <code>{rule.id}</code>: the source attributes of this decision support rule. The card that
            linked here says the engine version that ran for it.
          </p>
          <table>
            <tbody>
              {ATTRIBUTES.map(([label, value]) => (
                <tr>
                  <th scope="row">{label}</th>
                  <td>{value(rule)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </main>
      </body>
    </html>
  );
}

/** The override reasons as a complete FHIR R4 CodeSystem, its url being where it is served. */
function overrideReasonCodeSystem(publicBaseUrl: string) {
  const codes = overrideReasons(publicBaseUrl);
  return {
    resourceType: "CodeSystem",
    id: "cds-override-reasons",
    url: codes[0]?.system,
    name: "CdsOverrideReasons",
    title: "Reasons for overriding an interaction card",
    status: "active",
    content: "complete",
    count: codes.length,
    concept: codes.map((coding) => ({ code: coding.code, display: coding.display })),
  };
}

export function registerCdsRulePages(service: ServiceApp): void {
  const { publicBaseUrl } = service.deps;
  service.plain(
    "GET",
    OVERRIDE_REASONS_PATH,
    (c) => {
      c.header("Content-Type", "application/fhir+json");
      return c.body(JSON.stringify(overrideReasonCodeSystem(publicBaseUrl)), 200);
    },
    null,
  );
  service.plain(
    "GET",
    `${RULE_PAGES_PATH}/:ruleId`,
    (c) => {
      const rule = ruleById(c.req.param("ruleId") ?? "");
      if (!rule) throw new ApiError("not_found", "No CDS rule with this id.");
      c.header("Vary", "Accept");
      const accept = c.req.header("accept") ?? "";
      if (/application\/json/i.test(accept) && !/text\/html/i.test(accept))
        return c.json(rulePageJson(rule), 200);
      const nonce = setHtmlSecurityHeaders(c);
      return c.html(<RulePage rule={rule} nonce={nonce} />, 200);
    },
    null,
  );
}
