import { DOMAIN_KEYS, type Selection } from "@svc/mse-catalog";

/**
 * jsonb keeps object keys in its own order; domains are given back in catalog order, as they
 * were written (the validator orders them).
 */
export function storedSelection(raw: unknown): Selection {
  const stored = (raw ?? {}) as Selection;
  const out: Selection = {};
  for (const key of DOMAIN_KEYS) {
    const entry = stored[key];
    if (entry) out[key] = entry;
  }
  return out;
}
