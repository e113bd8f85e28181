/**
 * The source of `src/generated/client.ts`: one wrapper per operation of `docs/openapi.json`, read
 * from the document alone (decision 216). What each wrapper is comes from the operation:
 *
 * - its place in the client (`labs.orders.create`) is the call of the operation's `@svc/sdk`
 *   sample (`x-codeSamples`, which the reference shows), or its `operationId` when it has none;
 * - its arguments are the path parameters in order, then the JSON body, then the query;
 * - a GET whose answer (or the answer's `data`) has `hasMore` is a cursor list (`PageIterator`)
 *   over the answer's first array, paged by its `cursor` parameter when it has one;
 * - an operation that can also answer `application/fhir+json` takes `{ format: "fhir" }`.
 */

const SAMPLE_LABEL = "@svc/sdk";
const FHIR_JSON = "application/fhir+json";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** The operation type aliases the client module exports, by method (others index `paths`). */
const OPERATION_ALIASES: Record<string, string> = {
  get: "GetOperation",
  post: "PostOperation",
  patch: "PatchOperation",
};

/**
 * Request headers an operation needs that the document states only in its prose: MCP's
 * Streamable HTTP transport wants both media types named (the operation's description and 406).
 */
export const CALL_HEADERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "POST /v1/mcp": { accept: "application/json, text/event-stream" },
};

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
};
type Parameter = { name?: string; in?: string; required?: boolean; $ref?: string };
type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  "x-codeSamples"?: { label?: string; source?: string }[];
};
interface Document {
  paths: Record<string, Partial<Record<string, Operation>>>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> };
}

/** A cursor list: where the page's items and cursor are. */
interface ListShape {
  /** `page.data` (the Intelligence API's envelope) or `page` (the MSE Record API's flat answer). */
  page: "page.data" | "page";
  items: string;
  paged: boolean;
}

/** One wrapper: what the generator knows of an operation. */
export interface ClientOperation {
  member: string[];
  method: string;
  path: string;
  summary: string;
  pathParams: string[];
  body: boolean;
  query: "none" | "optional" | "required";
  list: ListShape | null;
  fhir: boolean;
  headers: Readonly<Record<string, string>> | undefined;
}

function refName(ref: string): string {
  return ref.split("/").at(-1) ?? "";
}

/** Reads every operation of the document as the wrapper it becomes. */
export function readOperations(doc: Document): ClientOperation[] {
  const schemas = doc.components?.schemas ?? {};
  const schema = (s: Schema | undefined): Schema | undefined => {
    let current = s;
    while (current?.$ref) current = schemas[refName(current.$ref)];
    return current;
  };
  const parameter = (p: Parameter): Parameter =>
    p.$ref ? (doc.components?.parameters?.[refName(p.$ref)] ?? p) : p;
  const found: ClientOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const parameters = (operation.parameters ?? []).map(parameter);
      const query = parameters.filter((p) => p.in === "query");
      const answer = operation.responses?.["200"]?.content;
      const list = method === "get" ? listShape(schema, answer?.["application/json"]?.schema, query) : null;
      found.push({
        member: memberOf(operation, name),
        method,
        path,
        summary: operation.summary ?? name,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name ?? ""),
        body: operation.requestBody !== undefined,
        query: query.length === 0 ? "none" : query.some((p) => p.required) ? "required" : "optional",
        list,
        fhir: answer?.[FHIR_JSON] !== undefined,
        headers: CALL_HEADERS[name],
      });
      if (list && !sampleOf(operation)?.includes("for await") && sampleOf(operation) !== undefined) {
        throw new Error(`${name}: a cursor list, but its ${SAMPLE_LABEL} sample does not iterate it.`);
      }
    }
  }
  for (const key of Object.keys(CALL_HEADERS)) {
    if (!found.some((op) => `${op.method.toUpperCase()} ${op.path}` === key)) {
      throw new Error(`CALL_HEADERS names ${key}, which is not an operation of the document.`);
    }
  }
  return found;
}

function sampleOf(operation: Operation): string | undefined {
  return operation["x-codeSamples"]?.find((s) => s.label === SAMPLE_LABEL)?.source;
}

/** The client member of an operation: its sample's call, or its operationId. */
function memberOf(operation: Operation, name: string): string[] {
  const sample = sampleOf(operation);
  const call = sample === undefined ? operation.operationId : /svc\.([A-Za-z.]+)\(/.exec(sample)?.[1];
  if (!call) throw new Error(`${name}: no ${SAMPLE_LABEL} sample call and no operationId to name it.`);
  return call.split(".");
}

/** The list shape of a GET's answer, or null when the answer is not a page (no `hasMore`). */
function listShape(
  schema: (s: Schema | undefined) => Schema | undefined,
  answer: Schema | undefined,
  query: Parameter[],
): ListShape | null {
  const top = schema(answer)?.properties ?? {};
  const data = top.data ? schema(top.data)?.properties : undefined;
  const page = data ?? top;
  if (!page.hasMore) return null;
  const items = Object.entries(page).find(([, s]) => schema(s)?.type === "array")?.[0];
  if (!items) return null;
  return { page: data ? "page.data" : "page", items, paged: query.some((p) => p.name === "cursor") };
}

/** `GetOperation<"/v1/x">`, or `paths["/v1/x"]["put"]` for a method without an alias. */
function operationType(op: ClientOperation): string {
  const alias = OPERATION_ALIASES[op.method];
  const path = JSON.stringify(op.path);
  return alias ? `${alias}<${path}>` : `paths[${path}][${JSON.stringify(op.method)}]`;
}

/** The wrapper of one operation, as a TypeScript expression. */
export function wrapperSource(op: ClientOperation): string {
  const type = operationType(op);
  const name = `${op.method.toUpperCase()} ${op.path}`;
  const queryType = op.list?.paged ? `Omit<QueryOf<${type}>, "cursor">` : `QueryOf<${type}>`;
  const args = op.pathParams.map((p) => `${p}: string`);
  if (op.body) args.push(`body: BodyOf<${type}>`);
  if (op.query !== "none") args.push(`query: ${queryType}${op.query === "optional" ? " = {}" : ""}`);
  const withFormat = op.fhir && !op.body;
  args.push(`call?: ${withFormat ? "FormatOptions" : "RequestOptions"}`);

  const query = op.list?.paged ? "query: { ...query, cursor }" : op.query !== "none" ? "query" : "";
  const path = op.pathParams.length > 0 ? `path: { ${op.pathParams.join(", ")} }` : "";
  const params = [path, query].filter(Boolean).join(", ");
  const init = [
    params ? `params: { ${params} }` : "",
    op.body ? "body" : "",
    op.headers ? `headers: ${JSON.stringify(op.headers)}` : "",
    withFormat ? "...c(withFormat(call))" : "...c(call)",
  ].filter(Boolean);
  const request = `unwrap(raw.${op.method.toUpperCase()}(${JSON.stringify(op.path)}, { ${init.join(", ")} }))`;
  const signature = `(${args.join(", ")})`;

  if (op.list) {
    const { page, items, paged } = op.list;
    const next = paged ? `nextCursor(${page})` : "null";
    return `${signature} => new PageIterator((${paged ? "cursor" : ""}) => ${request}, (page) => ({ items: ${page}.${items}, next: ${next} }))`;
  }
  if (!op.fhir) return `${signature} => ${request}`;
  if (op.body && op.pathParams.length === 0 && op.query === "none") {
    return `analysisCall(${signature} => ${request})`;
  }
  if (!op.body && op.pathParams.length === 1 && op.query !== "none") {
    return `(${signature} => ${request}) as MseRetrieveCall<QueryOf<${type}>, ResultOf<${type}>>`;
  }
  throw new Error(`${name} answers FHIR in a shape with no call type yet: add one in src/format.ts.`);
}

type Tree = Map<string, Tree | ClientOperation>;

/** The operations as a tree of client members; two operations at one member throw. */
function memberTree(operations: ClientOperation[]): Tree {
  const root: Tree = new Map();
  for (const op of operations) {
    let node = root;
    const where = op.member.join(".");
    for (const key of op.member.slice(0, -1)) {
      const next = node.get(key) ?? new Map();
      if (!(next instanceof Map)) throw new Error(`svc.${where}: svc.${key} is already an operation.`);
      node.set(key, next);
      node = next;
    }
    const leaf = op.member.at(-1) ?? "";
    if (node.has(leaf)) throw new Error(`svc.${where} names two operations.`);
    node.set(leaf, op);
  }
  return root;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A tree of members as an object literal, members in alphabetical order. */
function objectSource(tree: Tree): string {
  const members = [...tree.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = members.map(([name, value]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    if (value instanceof Map) return `${key}: ${objectSource(value)},`;
    const what = `${value.method.toUpperCase()} ${value.path}`;
    const summary = value.summary.replaceAll("*/", "*\\/");
    const doc = `/** ${summary} (\`${what}\`)${value.list ? ", page by page" : ""}. */`;
    return `${doc}\n${key}: ${wrapperSource(value)},`;
  });
  return `{\n${lines.join("\n")}\n}`;
}

/** The names the wrappers may use, by module, in the order Biome's import organizer keeps. */
const IMPORTS: readonly [module: string, names: readonly { name: string; type: boolean }[]][] = [
  [
    "../core.js",
    [
      { name: "Core", type: true },
      { name: "unwrap", type: false },
    ],
  ],
  [
    "../format.js",
    [
      { name: "analysisCall", type: false },
      { name: "FormatOptions", type: true },
      { name: "MseRetrieveCall", type: true },
      { name: "withFormat", type: false },
    ],
  ],
  [
    "../operation-types.js",
    ["BodyOf", "GetOperation", "PatchOperation", "PostOperation", "QueryOf", "ResultOf"].map((name) => ({
      name,
      type: true,
    })),
  ],
  [
    "../pagination.js",
    [
      { name: "nextCursor", type: false },
      { name: "PageIterator", type: false },
    ],
  ],
  ["../transport.js", [{ name: "RequestOptions", type: true }]],
  ["./openapi.js", [{ name: "paths", type: true }]],
];

/** One import line per module, of the names `code` uses. */
function importLines(source: string): string {
  const code = source.replace(/\/\*\*.*?\*\//g, "");
  return IMPORTS.map(([module, names]) => {
    const wanted = names.filter(({ name }) => new RegExp(`\\b${name}\\b`).test(code));
    if (wanted.length === 0) return "";
    const allTypes = wanted.every((n) => n.type);
    const list = wanted.map((n) => (n.type && !allTypes ? `type ${n.name}` : n.name)).join(", ");
    return `import ${allTypes ? "type " : ""}{ ${list} } from "${module}";\n`;
  }).join("");
}

/** The module: `clientOperations(core)` answers every wrapper, grouped by resource. */
export function clientModule(documentText: string, header: string): string {
  const tree = memberTree(readOperations(JSON.parse(documentText) as Document));
  const body = `/** Every operation of the document, wrapped: typed arguments, our transport, typed errors. */
export function clientOperations(core: Core) {
  const { raw } = core;
  const c = (call?: RequestOptions) => core.init(call);
  return ${objectSource(tree)};
}
`;
  return `${header}${importLines(body)}\n${body}`;
}
