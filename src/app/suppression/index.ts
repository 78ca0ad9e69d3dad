/** The suppression list for people: add and remove phones by hand, import a file of them, list it (the store keeps it per company; the run reads it through the account). */
export { importSuppressions, listSuppressions, suppressionAccount, suppressPhones, unsuppressPhones, type ImportOutcome, type SuppressOptions, type SuppressOutcome, type SuppressionAccount } from './suppression.js';
