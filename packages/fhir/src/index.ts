// FHIR R4 in and out for the engines: reading Observations and MedicationRequests into engine
// inputs, and writing engine answers as FHIR resources. Pure: no network, no database.

export * from "./inbound/index.js";
export * from "./outbound/index.js";
export * from "./patient-code-evidence.js";
