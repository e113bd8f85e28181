/**
 * The first resources of a FHIR source, cut before any of them is read (decision 142). A source
 * is walked the way the FHIR input mapping walks it (an array, a Bundle's `entry[].resource`,
 * Bundles inside Bundles, any other value as one item), without recursion, so its depth costs no
 * stack; only items are counted, and only the first `limit` are kept. A Bundle that says it has a
 * `next` page is kept as a stub after its entries, so the mapping still says the data may be
 * partial. What comes out is an array the mapping reads as it would have read the source, had
 * the source held only those items.
 */
type Json = Record<string, unknown>;

export interface BoundedSource {
  /** The kept items, in the order the mapping would read them. */
  items: unknown[];
  /** How many items the source holds (those kept, those cut). */
  total: number;
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function hasNextPage(bundle: Json): boolean {
  return Array.isArray(bundle.link) && bundle.link.some((l) => isObject(l) && l.relation === "next");
}

/**
 * At most `limit` items of `source`; `accept` narrows which items count (and are kept): the
 * order hooks read only the MedicationRequests of `draftOrders`, whatever else an order session
 * holds.
 */
export function firstResources(
  source: unknown,
  limit: number,
  accept: (item: unknown) => boolean = () => true,
): BoundedSource {
  const items: unknown[] = [];
  let total = 0;
  const keep = (item: unknown) => {
    if (!accept(item)) return;
    total += 1;
    if (items.length < limit) items.push(item);
  };
  // Work in reading order: a value to visit, or a stub to keep once a Bundle's entries are done.
  const stack: { value: unknown; stub?: true }[] = [{ value: source }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value } = next;
    if (next.stub) keep(value);
    else if (value === null || value === undefined) continue;
    else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i] });
    } else if (isObject(value) && value.resourceType === "Bundle") {
      if (hasNextPage(value))
        stack.push({
          value: {
            resourceType: "Bundle",
            ...(value.id === undefined ? {} : { id: value.id }),
            link: [{ relation: "next" }],
          },
          stub: true,
        });
      const entries = Array.isArray(value.entry) ? value.entry : [];
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const entry: unknown = entries[i];
        stack.push({ value: isObject(entry) ? entry.resource : entry });
      }
    } else keep(value);
  }
  return { items, total };
}
