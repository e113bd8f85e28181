/** Small builders every outbound mapping shares: bundle entries, references, annotations. */
import type { Annotation, Bundle, BundleEntry, Reference, Resource } from "@medplum/fhirtypes";

/** A resource with the `urn:uuid` it has inside the Bundle. */
export interface Entry<T extends Resource = Resource> {
  fullUrl: string;
  resource: T;
}

/** Mints `urn:uuid:` full URLs; tests pass a counter for stable output. */
export type NewId = () => string;

export const randomId: NewId = () => globalThis.crypto.randomUUID();

export function entry<T extends Resource>(newId: NewId, resource: T): Entry<T> {
  return { fullUrl: `urn:uuid:${newId()}`, resource };
}

/** A reference to another entry of the same Bundle. */
export function ref<T extends Resource>(target: Entry<T>, display?: string): Reference<T> {
  return display === undefined ? { reference: target.fullUrl } : { reference: target.fullUrl, display };
}

/** Notes from plain strings, empty ones dropped (FHIR elements are never empty). */
export function notes(...texts: (string | null | undefined)[]): Annotation[] | undefined {
  const kept = texts.filter((t): t is string => typeof t === "string" && t.trim() !== "");
  return kept.length > 0 ? kept.map((text) => ({ text })) : undefined;
}

/** A `collection` Bundle of the entries (decision 116), stamped with the answer's time. */
export function collection(entries: Entry[], timestamp: string, identifier?: Bundle["identifier"]): Bundle {
  return {
    resourceType: "Bundle",
    type: "collection",
    ...(identifier ? { identifier } : {}),
    timestamp,
    entry: entries.map((e): BundleEntry => ({ fullUrl: e.fullUrl, resource: e.resource })),
  };
}

/** Drops keys whose value is undefined, so no FHIR element is written empty. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
