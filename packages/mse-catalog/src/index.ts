export { canonicalJson } from "./canonical-json.js";
export {
  CATALOG,
  CATALOG_VERSION,
  CODE_SOURCES,
  CODES,
  CSSRS,
  DOMAINS,
  getCatalog,
  getDomain,
  getOption,
  OBSERVATION_METADATA,
  PANEL,
  SUPPORTING_SIGNALS,
} from "./catalog.js";
export { buildLines, joinPhrases, objectiveBlock, toPhrase } from "./narrative.js";
export {
  assessRisk,
  CSSRS_FOLLOW_UP_ITEMS,
  CSSRS_ITEM_LABELS,
  CSSRS_UNASKED_FOLLOW_UP_FLOOR,
  cssrsCompleteness,
  cssrsUnaskedFollowUps,
  isRiskOption,
  maxLevel,
  RISK_OPTION_EVIDENCE,
  RISK_OPTION_LEVELS,
  type RiskOptionEvidence,
  triageCssrs,
} from "./risk.js";
export * from "./types.js";
export {
  MAX_ERRORS,
  MAX_TEXT_LENGTH,
  mergeSelection,
  patchedDomains,
  SELECTION_SCOPE,
  validateSelection,
} from "./validate.js";
