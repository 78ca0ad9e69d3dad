/** The planner: what to send each contact, and the checks of a job before any send. Pure: no I/O, no clock. */
export type {
  Action,
  ActionKindOf,
  ChannelInfo,
  ChannelType,
  Media,
  PlannedMedia,
  PlanRejectReason,
  RenderedTemplate,
  SkipReason,
  TemplateInfo,
  DeferReason,
} from './types.js';
export { decide, renderCustomFields, MAX_TEXT_LENGTH, type PlanJob } from './decide.js';
export type { PlanContext, Budget } from './context.js';
export { recipientZone, zoneRules, type RecipientZone, type ZoneRules, type ZoneSource } from './zone.js';
export { nextOpening } from './quiet-hours.js';
export { columnUses, columnsUsed, type ColumnUse } from './columns.js';
export { render, placeholderColumns, columnKey, type RenderResult } from './render.js';
export { contactInbound, isWindowOpen, latestInbound, WINDOW_MS } from './window.js';
export { preflight, type PreflightJob, type PreflightResult } from './preflight.js';
export { needsTemplates } from './message-check.js';
export { templatePositions } from './template-check.js';
export { chooseVariant, variantLabel, type VariantChoice } from './variant.js';
export { contactContent, type ContactContent } from './content.js';
export { languageMatches, parseLanguage, formatLanguage, type LanguageTag } from './language.js';
export { actionLabel } from './label.js';
export { heldReject } from './held.js';
export { checkCustomFields, type CustomFieldInfo } from './custom-fields-check.js';
export { armOf, unitDraw, type ArmDraw } from './experiment-arm.js';
export type { ExperimentFacts } from './context.js';
