/**
 * How much of a hook call the services read and answer (decisions 142 and 143). Every list a
 * caller controls is cut to one of these before any of it is read, and each cut is said on a
 * card, never passed over in silence.
 */
import { MAX_MEDICATIONS } from "@svc/engines";

/** Cards in one answer, the closing "and N more" card included (decision 143). */
export const MAX_CARDS = 20;

/**
 * Draft MedicationRequests of `context.draftOrders` read by the order hooks: the interaction
 * checker compares at most this many medicines at once, so more drafts could not be compared
 * anyway.
 */
export const MAX_DRAFT_ORDERS = MAX_MEDICATIONS;

/** Entries of the patient's active medication list (prefetch `medications`) read by any service. */
export const MAX_ACTIVE_REQUESTS = 100;

/** Entries of prefetch `scores` read by patient-view: the `_count` its template asks for. */
export const MAX_SCORE_ENTRIES = 100;

/** Entries of prefetch `labs` read by patient-view: the `_count` its template asks for. */
export const MAX_LAB_ENTRIES = 200;

/** Orders named one by one on an interaction card, per medicine; the rest are counted. */
export const ORDERS_NAMED = 10;

/** Characters of an order's text from the EHR shown on a card (cut on a code-point boundary). */
export const ORDER_TEXT_SHOWN = 80;

/** Characters of one "not used" line (its resource id and status come from the EHR). */
export const NOT_USED_LINE_SHOWN = 200;

/** Entries of prefetch `patient` read (a read answers one Patient; a search Bundle is cut here). */
export const MAX_PATIENT_ENTRIES = 5;

/** Entries of prefetch `statements` (MedicationStatements) read by patient-view. */
export const MAX_STATEMENT_ENTRIES = 100;
