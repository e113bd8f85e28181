// What both blind runners share: the level scale, the service's doors as functions (JSON /v1,
// MCP tools, CDS Hooks calls signed as the registered EHR) and the door vocabularies mapped to one
// level (none < low < moderate < high; README.md).
export const RANK = { none: 0, low: 1, moderate: 2, high: 3 };
export const rank = (l) => RANK[l] ?? -1;
export const daysAgo = (n) => new Date(Date.now() - n * 86_400_000).toISOString();
export const PATIENT = "pat-1";
export const UCUM = "http://unitsofmeasure.org";
export const STATUS_LEVEL = { critical: "high", elevated: "moderate", watch: "low", no_flags: "none" };
export const INDICATOR_LEVEL = { critical: "high", warning: "moderate", info: "low" };
export const ruleOf = (card) => card.source?.url?.split("/cds-rules/")[1] ?? "?";
export const maxLevel = (levels) => levels.reduce((m, l) => (rank(l) > rank(m) ? l : m), "none");
export const fhirEntries = (b) => (b?.entry ?? []).map((e) => e.resource).filter(Boolean);
export const guidanceNotes = (b) =>
  fhirEntries(b)
    .filter((r) => r.resourceType === "GuidanceResponse")
    .flatMap((g) => (g.note ?? []).map((n) => n.text));
export const short = (x, n = 140) => {
  const t = typeof x === "string" ? x : JSON.stringify(x);
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
export const bundle = (resources) => ({
  resourceType: "Bundle",
  type: "searchset",
  entry: resources.map((resource) => ({ resource })),
});

/** The highest card level, counting the cards whose rule `ignore` does not drop. */
export function cardsLevel(r, ignore) {
  if (r.status !== 200) return { level: "?", got: `HTTP ${r.status} ${short(r.text, 100)}` };
  const cards = r.json.cards ?? [];
  const counted = cards.filter((c) => !ignore(ruleOf(c)));
  const level = maxLevel(counted.map((c) => INDICATOR_LEVEL[c.indicator] ?? "none"));
  return {
    level,
    cards,
    got: cards.length ? cards.map((c) => `${c.indicator}:${ruleOf(c)}`).join(", ") : "no cards",
  };
}

/** The doors of a started service (service.mjs). */
export function serviceDoors(s) {
  const headers = (accept) => ({
    Authorization: `Bearer ${s.key}`,
    "Content-Type": "application/json",
    Accept: accept ?? "application/json",
  });
  async function post(path, body, accept) {
    const r = await fetch(s.base + path, {
      method: "POST",
      headers: headers(accept),
      body: JSON.stringify(body),
    });
    const text = await r.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, json, text };
  }
  let rpcId = 0;
  async function mcp(name, args) {
    const r = await post(
      "/v1/mcp",
      { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name, arguments: args } },
      "application/json, text/event-stream",
    );
    const result = r.json?.result;
    if (!result) return { error: `HTTP ${r.status} ${r.text.slice(0, 200)}` };
    return {
      isError: result.isError === true,
      sc: result.structuredContent,
      text: result.content?.[0]?.text ?? "",
    };
  }
  async function cds(service, body) {
    const url = `${s.cdsBase}/cds-services/${service}`;
    const r = await fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${s.jwt(url)}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, json, text };
  }
  return { post, mcp, cds };
}
