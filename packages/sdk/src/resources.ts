import type { components } from "./generated/openapi.js";

/**
 * Named types of the API's resources and request bodies: aliases of the OpenAPI document's
 * schemas (`components["schemas"][...]`), so a caller can write `LabOrder` instead of reaching
 * into the generated types or the wrappers' return types.
 */
type Schemas = components["schemas"];

/** A lab order (`svc.labs.orders.*`). */
export type LabOrder = Schemas["LabOrder"];
/** The results on a resulted lab order. */
export type LabResults = Schemas["LabResults"];
/** A panel of the lab catalog (`svc.labs.panels.list`). */
export type LabCatalogPanel = Schemas["LabCatalogPanel"];
/** The body of `svc.labs.orders.create`. */
export type CreateLabOrderRequest = Schemas["CreateLabOrderRequest"];
/** An event of the account, as `svc.events.list` answers it (webhook receivers: `WebhookEvent`). */
export type Event = Schemas["Event"];
/** A wearable connection (`svc.wearables.connections.*`). */
export type WearableConnection = Schemas["WearableConnection"];
/** A connection's synced metrics. */
export type WearableMetrics = Schemas["WearableMetrics"];
/** The body of `svc.wearables.connect`. */
export type WearableConnectRequest = Schemas["WearableConnectRequest"];
/** Your own flat key-value `metadata` on a lab order or wearable connection (never patient data). */
export type ResourceMetadata = Schemas["ResourceMetadata"];

/** The latest MSE of a visit (`svc.mse.retrieve`). */
export type MseRecord = Schemas["MseRecord"];
/** One version of a visit's MSE history. */
export type MseHistoryEntry = Schemas["MseHistoryEntry"];
/** One version of the audit chain, and one signature on it. */
export type MseAuditVersion = Schemas["MseAuditVersion"];
export type MseAuditSignature = Schemas["MseAuditSignature"];
/** A suicide-risk screen's result, and the safety event it raises. */
export type MseRisk = Schemas["MseRisk"];
export type MseSafetyEvent = Schemas["MseSafetyEvent"];
/** The bodies of `svc.mse.write`, `patch` and `sign`. */
export type MseWriteRequest = Schemas["MseWriteRequest"];
export type MsePatchRequest = Schemas["MsePatchRequest"];
export type MseSignRequest = Schemas["MseSignRequest"];
/** The MSE catalog (`svc.mse.domains`). */
export type MseCatalog = Schemas["MseCatalog"];

/** The analyses' request bodies. */
export type DmseAnalyzeRequest = Schemas["DmseAnalyzeRequest"];
export type MedicationAnalyzeRequest = Schemas["MedicationAnalyzeRequest"];
export type BiomarkerAnalyzeRequest = Schemas["BiomarkerAnalyzeRequest"];
export type OutcomeScoreRequest = Schemas["OutcomeScoreRequest"];
export type RelapsePredictRequest = Schemas["RelapsePredictRequest"];
/** The analyses' JSON answers (`data` of each). */
export type DmseAnalysis = Schemas["DmseAnalysisData"];
export type MedicationAnalysis = Schemas["MedicationAnalysisData"];
export type BiomarkerAnalysis = Schemas["BiomarkerAnalysisData"];
export type OutcomeScore = Schemas["OutcomeScoreData"];
export type RelapsePrediction = Schemas["RelapsePredictionData"];
/** The FHIR R4 Bundle an analysis answers with `{ format: "fhir" }`. */
export type FhirBundle = Schemas["FhirBundle"];
/** The FHIR R4 Bundle of an MSE (`svc.mse.retrieve(visitId, {}, { format: "fhir" })`). */
export type MseFhirBundle = Schemas["MseFhirBundle"];

/** The two error body shapes: the Intelligence API's envelope and the MSE Record API's flat body. */
export type ErrorEnvelope = Schemas["ErrorEnvelope"];
export type FlatError = Schemas["FlatError"];
