/** An experiment's arms: which arm a contact gets, the tallies, the statistics and the decision the store keeps. */
export { armFor, armTallies, decideExperiment, decisionTime, experimentDecision, experimentFacts, experimentLookup, experimentView, withArms, type ArmTally, type ExperimentDecision, type ExperimentLookup, type ExperimentView } from './arms.js';
export { decideArms, normalCdf, rateWithInterval, twoProportionPValue } from './stats.js';
