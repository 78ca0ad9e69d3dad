/** The contact pipeline: the loader's rows (libphonenumber, csv-parse) and, when a planner is given, its decision on each; imported lazily where only counts are read. */
export { audience, audienceBatches, placeholderColumns, plannedItems, type AudienceItem, type AudienceOptions } from './audience.js';
