/** A job made ready to plan or run: validated, its contact files found, its channel checked against the platform. */
export { prepare, type Prepared, type PrepareSource } from './prepare.js';
