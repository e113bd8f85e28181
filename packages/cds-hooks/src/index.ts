// CDS Hooks 2.0.1 services over the engines: discovery, hook requests, prefetch templates and
// cards. Pure: the caller fetches what prefetch lacks and verifies the EHR's JWT.

export { MONITORED_MEDICINES } from "@svc/engines";
export * from "./cards.js";
export * from "./limits.js";
export { type PrefetchQueries, prefetchQueries, resolveTemplate } from "./prefetch.js";
export * from "./request.js";
export * from "./response.js";
export {
  type FindingCardOptions,
  findingCard,
  findingCards,
  findingIndicator,
  findingRuleId,
} from "./review-cards.js";
export * from "./rules.js";
export { type CdsRunResult, type RunOptions, runCdsService } from "./run.js";
export type { HookRequestOf, ServiceRun } from "./service-module.js";
export {
  findingNamesMedicine,
  INTERACTIONS_ENGINE,
  overrideReasons,
  SEVERITY_INDICATOR,
} from "./services/psych-interactions.js";
export * from "./services.js";
