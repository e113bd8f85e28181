/** What the two patient-review door-parity tests (JSON and agents, and CDS) share. */

export const DAY = 86_400_000;

/**
 * A date half a day off a whole number of days before `now`: the service's own clock reads a few
 * milliseconds later than the test's, so no schedule or window boundary may fall between.
 */
export const daysBefore = (now: number, days: number) => new Date(now - (days + 0.5) * DAY).toISOString();

/** Medicines whose patient factors, ECG, monitoring and trend rules the review judges. */
export const REVIEWED_MEDICINES = [
  "sodium valproate 500 mg twice daily",
  "lithium carbonate 400 mg at night",
  "clozapine 300 mg daily",
  "olanzapine 10 mg at night",
  "citalopram 40 mg daily",
] as const;
