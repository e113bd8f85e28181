import type { components } from "./generated/openapi.js";

/**
 * Named types of the API's resources and request bodies: aliases of the OpenAPI document's
 * schemas (`components["schemas"][...]`), so a caller can write `LabOrder` instead of reaching
 * into the generated types or the wrappers' return types.
 */
/** A lab order (`svc.labs.orders.*`). */
export type LabOrder = components["schemas"]["LabOrder"];
/** The results on a resulted lab order. */
export type LabResults = components["schemas"]["LabResults"];
/** A panel of the lab catalog (`svc.labs.panels.list`). */
export type LabCatalogPanel = components["schemas"]["LabCatalogPanel"];
/** The body of `svc.labs.orders.create`. */
export type CreateLabOrderRequest = components["schemas"]["CreateLabOrderRequest"];
/** An event of the account, as `svc.events.list` answers it (webhook receivers: `WebhookEvent`). */
export type Event = components["schemas"]["Event"];
/** A wearable connection (`svc.wearables.connections.*`). */
export type WearableConnection = components["schemas"]["WearableConnection"];
/** A connection's synced metrics. */
export type WearableMetrics = components["schemas"]["WearableMetrics"];
/** The body of `svc.wearables.connect`. */
export type WearableConnectRequest = components["schemas"]["WearableConnectRequest"];
/** Your own flat key-value `metadata` on a lab order or wearable connection (never patient data). */
export type ResourceMetadata = components["schemas"]["ResourceMetadata"];

/** The latest MSE of a visit (`svc.mse.retrieve`). */
export type MseRecord = components["schemas"]["MseRecord"];
/** One version of a visit's MSE history. */
export type MseHistoryEntry = components["schemas"]["MseHistoryEntry"];
/** One version of the audit chain, and one signature on it. */
export type MseAuditVersion = components["schemas"]["MseAuditVersion"];
export type MseAuditSignature = components["schemas"]["MseAuditSignature"];
/** A suicide-risk screen's result, and the safety event it raises. */
export type MseRisk = components["schemas"]["MseRisk"];
export type MseSafetyEvent = components["schemas"]["MseSafetyEvent"];
/** The bodies of `svc.mse.write`, `patch` and `sign`. */
export type MseWriteRequest = components["schemas"]["MseWriteRequest"];
export type MsePatchRequest = components["schemas"]["MsePatchRequest"];
export type MseSignRequest = components["schemas"]["MseSignRequest"];
/** The MSE catalog (`svc.mse.domains`). */
export type MseCatalog = components["schemas"]["MseCatalog"];

/** The analyses' request bodies and JSON answers (`data` of each), named from the document. */
export type * from "./generated/analyses.js";
/** The FHIR R4 Bundle an analysis answers with `{ format: "fhir" }`. */
export type FhirBundle = components["schemas"]["FhirBundle"];
/** The FHIR R4 Bundle of an MSE (`svc.mse.retrieve(visitId, {}, { format: "fhir" })`). */
export type MseFhirBundle = components["schemas"]["MseFhirBundle"];

/** The two error body shapes: the Intelligence API's envelope and the MSE Record API's flat body. */
export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];
export type FlatError = components["schemas"]["FlatError"];
