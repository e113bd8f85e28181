// CDS Hooks 2.0.1 services over the engines: discovery, hook requests, prefetch templates and
// cards. Pure: the caller fetches what prefetch lacks and verifies the EHR's JWT.
export {};
